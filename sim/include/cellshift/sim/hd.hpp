#pragma once
// CELLSHIFT_HD marks the physics that every backend runs: compiled for the host by
// the C++ compiler and for the device by nvcc (HOOMD-blue's HOSTDEVICE idea).
#if defined(__CUDACC__)
#define CELLSHIFT_HD __host__ __device__ __forceinline__
#else
#define CELLSHIFT_HD inline
#endif
