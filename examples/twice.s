# y = x + x for one (8, 16) f32 tile under the small preset.
# SMEM: x's HBM address at 0..7 doubles as words 0-1 of the input DMA
# descriptor at 0; y's address at 72..79 as words 2-3 of the output one
# at 64.  Descriptors: dir | ndim << 4 | esize << 8, then element counts.
.preset small
.region kernel
.entry twice
.operand x in f32[8,16] smem=0
.operand y out f32[8,16] smem=72

	smovi s0, 0 ; smovi s1, 0x411 ; trace.begin kernel
	sst s1, [s0 + 16] ; smovi s2, 128          # HBM->VMEM, 1 dim, f32
	sst s2, [s0 + 20] ; smovi s3, 1            # 128 elements
	sst s3, [s0 + 24] ; sst s3, [s0 + 28]      # unused dims: count 1
	sst s3, [s0 + 32] ; smovi s4, 0x412        # VMEM->HBM, 1 dim, f32
	dma.start f0, [s0] ; smovi s5, 512         # x -> VMEM 0
	sync.wait f0, 1 ; sst s5, [s0 + 64]        # out: from VMEM 512
	vld v1, [s0] ; sst s4, [s0 + 80]
	sst s2, [s0 + 84] ; sst s3, [s0 + 88]
	vadd.f32 v2, v1, v1 ; sst s3, [s0 + 92] ; sst s3, [s0 + 96]
	nop
	vst v2, [s0 + 512]
	dma.start f1, [s0 + 64]                    # VMEM 512 -> y
	sync.wait f1, 1
	trace.end kernel ; halt
