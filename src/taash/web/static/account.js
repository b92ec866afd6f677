// Accounts on the lobby: log in (a guest who has none yet), keep your name with a password, log out, change it.

import { _, adoptLanguage, parts } from "/static/i18n.js";
import { api, h, nameEl, toast } from "/static/common.js";

function passwordInput(testid, placeholder, autocomplete = "new-password") {
  return h("input", { type: "password", testid, placeholder, autocomplete, minlength: 8, maxlength: 128,
    required: true, "aria-label": placeholder });
}

/** A small form whose submit calls `send(form)`; its error line shows what the server said. */
function form(testid, title, fields, label, send) {
  const error = h("p", { class: "error", role: "alert" });
  const f = h("form", { class: "account-form", testid },
    h("label", {}, title), h("div", { class: "row" }, ...fields, h("button", { type: "submit" }, label)), error);
  f.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      await send();
    } catch (e) {
      error.textContent = e.message;
    }
  });
  return f;
}

/** Log in to an account (from a browser that has no guest, or another one): resolves with the guest. */
export function loginForm(container) {
  return new Promise((resolve) => {
    const name = h("input", { type: "text", testid: "login-name", placeholder: _("Name"), maxlength: 24,
      autocomplete: "username", required: true, "aria-label": _("Name") });
    const password = passwordInput("login-password", _("Password"), "current-password");
    const f = form("login-form", _("Or log in to your account"), [name, password], _("Log in"), async () => {
      const guest = await api("POST", "/api/login", { name: name.value.trim(), password: password.value });
      if (adoptLanguage(guest.language)) return; // the account's language: the page is drawn again in it
      f.remove();
      resolve(guest);
    });
    container.appendChild(f);
  });
}

/** The account panel of the current guest: claim his name with a password, or log out and change it. */
export function accountPanel(container, guest, onChange) {
  container.hidden = false;
  if (!guest.account) {
    const password = passwordInput("claim-password", _("A password (8 or more characters)"));
    container.replaceChildren(h("h2", {}, _("Keep your name")),
      form("claim-form", parts(_("Claim “{name}” with a password, to play as yourself from any browser"),
        { name: nameEl(guest.name) }), [password], _("Claim"), async () => {
          onChange(await api("POST", "/api/account", { password: password.value }));
          toast(_("Your name is yours: log in with it from any browser."));
        }));
    return;
  }
  const old = passwordInput("old-password", _("Password now"), "current-password");
  const fresh = passwordInput("new-password", _("New password"));
  const logout = h("button", { type: "button", testid: "logout" }, _("Log out"));
  logout.addEventListener("click", async () => {
    try {
      await api("POST", "/api/logout");
      location.assign("/");
    } catch (e) {
      container.querySelector(".error").textContent = e.message;
    }
  });
  container.replaceChildren(h("h2", {}, _("Your account")),
    h("p", { class: "row" }, h("span", { testid: "account-name" },
      ...parts(_("Logged in as {name}."), { name: nameEl(guest.name) })), logout),
    form("password-form", _("Change your password"), [old, fresh], _("Change"), async () => {
      onChange(await api("POST", "/api/password", { old: old.value, new: fresh.value }));
      toast(_("Your password is changed."));
    }));
}
