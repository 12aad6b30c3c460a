"""UI package."""
