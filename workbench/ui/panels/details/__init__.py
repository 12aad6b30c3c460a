"""Properties/Details dock: key/value properties of whatever is selected."""
