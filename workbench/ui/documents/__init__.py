"""Documents for files no other view opens: the text / hex view (``text_view.py``)."""
