"""The results database (the store): its tables, their checks, a game's logs, matches, and the stored
games read back as ratings outcomes or exported."""
