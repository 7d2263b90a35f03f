"""gpuir.runtime"""
