"""
Meshes: what the checker needs of a mesh file, cached per file version, and the files served.

* :mod:`.facts`: a mesh file's format, bounding box and triangle count;
* :mod:`.solids`: what its triangles enclose: closed or not, volume, thickness, convex hull;
* :mod:`.cache`: those facts kept on disk between runs;
* :mod:`.resources`: the files a description references, looked up by request path;
* :mod:`.triangles`: mesh files as rviz draws them (trimesh), for the viewer.
"""
