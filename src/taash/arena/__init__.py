"""Measuring bots against each other honestly: duplicate deals, margins with confidence intervals."""
