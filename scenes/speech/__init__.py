"""Narration: the voice that speaks a step (synthesis, voices) and its text written for the ear."""
