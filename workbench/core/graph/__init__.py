"""A model as a navigable graph, Qt-free: one graph model (:mod:`.model`) read from ONNX, the om JSON
of ``atc --mode=1``, Caffe prototxt and TensorFlow pb/pbtxt (:mod:`.load`), its layered layout
(:mod:`.layout`), exports (layout JSON, SVG) and the before/after-ATC op mapping.
"""
