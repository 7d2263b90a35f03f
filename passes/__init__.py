"""gpuir.passes"""
