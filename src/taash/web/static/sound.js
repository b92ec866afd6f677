// The table's sounds, made by the Web Audio API (no sound files, nothing downloaded): your turn, a capture, a
// sweep, a declaration (or a baazi), and the turn timer running low. The audio starts only after the person's
// first click or key on the page (browsers allow sound from then on), and never while the sound is muted (the
// option `muted`, remembered by options.js).

import * as options from "/static/options.js";

/** Each sound as notes: [start (s), frequency (Hz), length (s), wave, loudness 0..1]. */
const SOUNDS = {
  turn: [[0, 660, 0.14, "sine", 0.35], [0.13, 880, 0.2, "sine", 0.35]],
  capture: [[0, 220, 0.09, "triangle", 0.5], [0.05, 330, 0.12, "triangle", 0.4]],
  sweep: [[0, 523, 0.12, "triangle", 0.4], [0.1, 659, 0.12, "triangle", 0.4], [0.2, 784, 0.12, "triangle", 0.4],
    [0.3, 1047, 0.3, "triangle", 0.45]],
  declare: [[0, 392, 0.5, "sine", 0.3], [0, 494, 0.5, "sine", 0.25], [0, 587, 0.5, "sine", 0.25],
    [0.25, 784, 0.45, "sine", 0.3]],
  low: [[0, 988, 0.08, "square", 0.12], [0.16, 988, 0.08, "square", 0.12]],
};

let context = null;
let played = 0;

/** The audio context, made (or resumed) only inside a person's gesture, as the browser allows. */
function unlock() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx || options.get("muted")) return;
  if (!context) {
    try { context = new Ctx(); } catch (e) { return; }
  }
  if (context.state === "suspended") context.resume().catch(() => {});
}

/** Listen for the person's first gestures (a later one resumes a context the browser suspended). */
export function init() {
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, { capture: true });
  options.onChange((name, value) => { if (name === "muted" && !value) unlock(); });
}

/** Play sound `kind` (a name of SOUNDS), unless muted or before the page may make sound. */
export function play(kind) {
  const notes = SOUNDS[kind];
  if (!notes || options.get("muted") || !context || context.state === "closed") return false;
  const t0 = context.currentTime + 0.01;
  for (const [start, freq, length, wave, loud] of notes) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    // A quick rise and an exponential fall: no clicks at the note's ends.
    gain.gain.setValueAtTime(0.0001, t0 + start);
    gain.gain.exponentialRampToValueAtTime(loud * 0.4, t0 + start + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
    osc.connect(gain).connect(context.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + length + 0.02);
  }
  // For tests and tools: the last sound made and how many.
  played += 1;
  document.body.dataset.sound = kind;
  document.body.dataset.sounds = String(played);
  return true;
}
