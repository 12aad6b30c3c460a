"""The Cluster document: a multi-rank job analysed by core ``workbench.core.cluster`` (Overview:
step × rank heatmap, per-rank stacked bars and the findings; Communication: groups and operators;
Matrix: src × dst bandwidth). The widgets draw and forward; the numbers come from core."""
