# comment
MemcpyHtoD,0x00007f0000001000,4096
MemcpyDtoH,0x10,4

kernel-1.traceg
kernel-2.traceg
