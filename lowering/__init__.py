"""gpuir.lowering"""
