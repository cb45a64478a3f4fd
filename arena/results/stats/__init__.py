"""What the stored games say: TrueSkill ratings and the tables over them, intervals, head to head, and a
comparison's paired statistics (its sequential test, its Elo-like difference)."""
