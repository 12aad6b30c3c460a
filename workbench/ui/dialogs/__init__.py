"""Small stand-alone dialogs: About, New Project, Timeline Color. Each is a QDialog over core models."""
