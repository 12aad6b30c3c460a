"""Plain data models shared by services and the UI."""
