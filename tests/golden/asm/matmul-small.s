# matmul_small: VMEM 20480 of 262144 bytes; SMEM 704 of 4096 bytes
# matmul_f32_small: VMEM 28672 of 262144 bytes; SMEM 704 of 4096 bytes
# 1474 bundles, 1005 ops
.preset small
.region matmul_small
.region matmul_f32_small
.entry matmul_small pc=L0 vmem=20480 smem=704
.operand x in bf16[128,128] smem=0
.operand y in bf16[128,64] smem=8
.operand z out f32[128,64] smem=16
.entry matmul_f32_small pc=L417 vmem=28672 smem=704
.operand x in f32[64,64] smem=0
.operand y in f32[64,64] smem=8
.operand z out f32[64,64] smem=16

L0:
	.loc "" 0 0 region=matmul_small
	smovi s0, 0 ; smovi s1, 66081 ; trace.begin matmul_small
	sst s1, [s0 + 336] ; smovi s2, 32
	sst s2, [s0 + 340] ; smovi s3, 1
	sst s2, [s0 + 344] ; smovi s4, 256
	sst s3, [s0 + 348] ; smovi s5, 1024
	sst s3, [s0 + 352] ; smovi s6, 128
	sst s4, [s0 + 356] ; smovi s7, 1090
	sst s5, [s0 + 368] ; smovi s8, 16
	sst s0, [s0 + 360] ; smovi s9, 8
	sst s0, [s0 + 372] ; smovi s10, 2
	sst s0, [s0 + 364] ; smovi s11, 4
	sst s0, [s0 + 376] ; smovi s12, 64
	sst s0, [s0 + 380] ; smovi s13, 512
	sst s0, [s0 + 332] ; smovi s14, 2048
	sst s1, [s0 + 400]
	sst s2, [s0 + 404]
	sst s2, [s0 + 408]
	sst s3, [s0 + 412]
	sst s3, [s0 + 416]
	sst s6, [s0 + 420]
	sst s5, [s0 + 432]
	sst s0, [s0 + 424]
	sst s0, [s0 + 436]
	sst s0, [s0 + 428]
	sst s0, [s0 + 440]
	sst s0, [s0 + 444]
	sst s0, [s0 + 396]
	sst s1, [s0 + 464]
	sst s2, [s0 + 468]
	sst s2, [s0 + 472]
	sst s3, [s0 + 476]
	sst s3, [s0 + 480]
	sst s4, [s0 + 484]
	sst s5, [s0 + 496]
	sst s0, [s0 + 488]
	sst s0, [s0 + 500]
	sst s0, [s0 + 492]
	sst s0, [s0 + 504]
	sst s0, [s0 + 508]
	sst s0, [s0 + 460]
	sst s1, [s0 + 528]
	sst s2, [s0 + 532]
	sst s2, [s0 + 536]
	sst s3, [s0 + 540]
	sst s3, [s0 + 544]
	sst s6, [s0 + 548]
	sst s5, [s0 + 560]
	sst s0, [s0 + 552]
	sst s0, [s0 + 564]
	sst s0, [s0 + 556]
	sst s0, [s0 + 568]
	sst s0, [s0 + 572]
	sst s0, [s0 + 524]
	sst s7, [s0 + 592]
	sst s8, [s0 + 596]
	sst s9, [s0 + 600]
	sst s10, [s0 + 604]
	sst s11, [s0 + 608]
	sst s12, [s0 + 612]
	sst s4, [s0 + 624]
	sst s13, [s0 + 616]
	sst s12, [s0 + 628]
	sst s5, [s0 + 620]
	sst s14, [s0 + 632]
	sst s0, [s0 + 636]
	sst s0, [s0 + 580]
	sst s7, [s0 + 656]
	sst s8, [s0 + 660]
	sst s9, [s0 + 664]
	sst s10, [s0 + 668]
	sst s11, [s0 + 672]
	sst s12, [s0 + 676]
	sst s4, [s0 + 688]
	sst s13, [s0 + 680]
	sst s12, [s0 + 692]
	sst s5, [s0 + 684]
	sst s14, [s0 + 696]
	sst s0, [s0 + 700]
	sst s0, [s0 + 644]
	smovi s1, 0 ; smovi s2, -2147483648
	sst s1, [s0 + 216] ; scmpi.eq p1, s1, 0
	sst s1, [s0 + 220] ; scmpi.eq p2, s1, 1
	sst s1, [s0 + 224] ; smovi s3, 4096
	sst s2, [s0 + 228] ; smov s4, s1
	sst s2, [s0 + 232]
	sld s5, [s0] ; sld s6, [s0 + 4]
	nop
	sst s6, [s0 + 324] ; saddi s7, s5, 0
	sst s7, [s0 + 320]
	sst s1, [s0 + 328]
	(p1) dma.start f0, [s0 + 320]
	(p2) dma.start f1, [s0 + 320]
	sst s1, [s0 + 236]
	sst s1, [s0 + 240]
	sst s1, [s0 + 244]
	sst s2, [s0 + 248]
	sst s2, [s0 + 252]
	sld s5, [s0 + 8] ; sld s6, [s0 + 12]
	nop
	sst s6, [s0 + 388] ; saddi s7, s5, 0
	sst s7, [s0 + 384]
	sst s3, [s0 + 392]
	(p1) dma.start f2, [s0 + 384]
	(p2) dma.start f3, [s0 + 384]
	sst s1, [s0 + 256]
	sst s1, [s0 + 260]
	sst s1, [s0 + 264]
	sst s2, [s0 + 268]
	sst s2, [s0 + 272]
L109:
	smovi s1, 0
	smov s2, s1
L111:
	smovi s1, 0
	smov s3, s1
L113:
	saddi s1, s3, 1 ; saddi s5, s2, 1
	scmpi.eq p1, s1, 4 ; saddi s6, s4, 1
	smovi s7, 0 ; ssel s8, p1, s5, s2
	ssel s5, p1, s7, s1 ; scmpi.eq p2, s8, 2
	ssel s1, p2, s7, s8 ; pand p3, p1, p2
	ssel s8, p3, s6, s4 ; sld s9, [s0 + 228]
	scmpi.eq p1, s8, 4 ; sld s6, [s0 + 232]
	ssel s10, p1, s7, s8 ; pand p2, p3, p1
	scmp.ne p1, s4, s10 ; scmp.ne p3, s3, s5
	sld s7, [s0 + 248] ; sld s8, [s0 + 252]
	sld s11, [s0 + 268] ; sld s12, [s0 + 272]
	pnot p4, p2 ; scmpi.eq p5, s4, 0
	scmpi.eq p2, s2, 0 ; por p6, p1, p3
	pand p7, p5, p2 ; scmp.ne p8, s2, s1
	scmpi.eq p2, s3, 0 ; sld s13, [s0 + 216]
	scmp.ne p5, s4, s9 ; scmp.ne p9, s3, s6
	pand p10, p4, p6 ; sld s6, [s0 + 236]
	scmp.ne p6, s3, s7 ; scmp.ne p11, s2, s8
	por p12, p3, p8 ; sld s7, [s0 + 256]
	scmp.ne p3, s4, s11 ; scmp.ne p13, s2, s12
	pand p14, p7, p2 ; por p15, p1, p8
	por p1, p5, p9 ; por p2, p6, p11
	pand p5, p4, p12 ; por p6, p3, p13
	pand p3, p4, p15 ; (!p10) br L148
	smuli s8, s10, 32 ; smuli s9, s5, 32
	smuli s10, s9, 2 ; smuli s11, s8, 256
	smovi s8, 1 ; sld s9, [s0]
	sadd s12, s10, s11 ; sld s14, [s0 + 4]
	ssub s10, s8, s13 ; sadd s11, s9, s12
	smuli s8, s10, 2048 ; sst s14, [s0 + 452]
	saddi s9, s11, 0 ; saddi s12, s8, 0
	sst s9, [s0 + 448] ; scmpi.eq p6, s10, 0
	sst s12, [s0 + 456] ; scmpi.eq p7, s10, 1
	(p6) dma.start f0, [s0 + 448]
	(p7) dma.start f1, [s0 + 448]
L148:
	(!p5) br L160
	smuli s8, s5, 32 ; smuli s9, s1, 32
	smuli s1, s9, 2 ; smuli s5, s8, 128
	smovi s8, 1 ; sld s9, [s0 + 8]
	sadd s10, s1, s5 ; sld s11, [s0 + 12]
	ssub s1, s8, s6 ; sadd s5, s9, s10
	smuli s8, s1, 2048 ; sst s11, [s0 + 516]
	saddi s9, s5, 0 ; saddi s10, s8, 4096
	sst s9, [s0 + 512] ; scmpi.eq p6, s1, 0
	sst s10, [s0 + 520] ; scmpi.eq p7, s1, 1
	(p6) dma.start f2, [s0 + 512]
	(p7) dma.start f3, [s0 + 512]
L160:
	sld s1, [s0 + 264]
	nop
	scmpi.ne p6, s1, 0
	(!p6) br L177
	sld s1, [s0 + 268] ; sld s5, [s0 + 272]
	sld s8, [s0 + 256] ; smovi s9, 1
	smuli s10, s1, 32 ; smuli s11, s5, 32
	ssub s1, s9, s8 ; smuli s5, s11, 4
	smuli s8, s1, 4096 ; smuli s9, s10, 256
	sadd s10, s5, s9 ; sld s11, [s0 + 16]
	sld s5, [s0 + 20] ; saddi s9, s8, 8192
	sadd s8, s11, s10 ; sst s9, [s0 + 576]
	sst s5, [s0 + 588] ; saddi s9, s8, 0
	sst s9, [s0 + 584] ; scmpi.eq p6, s1, 0
	scmpi.eq p7, s1, 1 ; smovi s5, 0 ; (p6) dma.start f4, [s0 + 576]
	(p7) dma.start f5, [s0 + 576]
	sst s5, [s0 + 264]
L177:
	(!p1) br L181
	scmpi.eq p1, s13, 0 ; scmpi.eq p6, s13, 1
	(p1) sync.take f0, 1
	(p6) sync.take f1, 1
L181:
	(!p2) br L185
	scmpi.eq p1, s6, 0 ; scmpi.eq p2, s6, 1
	(p1) sync.take f2, 1
	(p2) sync.take f3, 1
L185:
	.loc "kernels/matmul/matmul.pk" 28 5 region=matmul_small
	scmpi.eq p1, s3, 0
	.loc "kernels/matmul/matmul.pk" 28 5 region=matmul_small
	(!p1) br L198
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smovi s1, 0 ; vbcasti v0, 0
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smov s5, s1
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smuli s1, s5, 128 ; saddi s5, s5, 8
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smuli s8, s5, 128 ; saddi s5, s5, 8 ; vst v0, [s1 + 16384]
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smuli s9, s5, 128 ; saddi s5, s5, 8 ; vst v0, [s1 + 16896]
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smuli s1, s5, 128 ; saddi s5, s5, 8 ; vst v0, [s8 + 16384]
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	vst v0, [s8 + 16896]
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	vst v0, [s9 + 16384]
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	vst v0, [s9 + 16896]
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	vst v0, [s1 + 16384]
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	vst v0, [s1 + 16896]
L198:
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	smuli s1, s13, 2048 ; smuli s5, s6, 2048
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s5 + 4096]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s1]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s1 + 1024] ; mxu.push.bf16 mxu0, v0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s5 + 4608] ; mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s0 + 16384] ; mxu.mm.bf16 mxu0, v1
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v4, [s0 + 17408] ; mxu.push.bf16 mxu0, v0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s5 + 5120]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.mm.bf16 mxu0, v2
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.push.bf16 mxu0, v0
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.pop v0, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v5, v3, v0 ; mxu.pop v2, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v0, v4, v2
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v5, [s0 + 16384]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v0, [s0 + 17408]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s1 + 1024]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 18432]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s0 + 19456]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.mm.bf16 mxu0, v1
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.pop v1, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v5, v2, v1 ; mxu.pop v4, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v1, v3, v4
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v5, [s0 + 18432]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v1, [s0 + 19456]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s1 + 512]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 16896]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s0 + 17920]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v4, [s5 + 5632] ; mxu.mm.bf16 mxu0, v0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.push.bf16 mxu0, v4
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.pop v0, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v5, v2, v0 ; mxu.pop v4, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v0, v3, v4
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v5, [s0 + 16896]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v0, [s0 + 17920]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s1 + 1536]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 18944]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s0 + 19968]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.mm.bf16 mxu0, v1
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.pop v1, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v5, v2, v1 ; mxu.pop v4, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v1, v3, v4
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v5, [s0 + 18944]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v1, [s0 + 19968]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s1 + 512]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 16384]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s0 + 17408]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v4, [s5 + 4096] ; mxu.mm.bf16 mxu0, v0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.push.bf16 mxu0, v4
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.pop v0, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v5, v2, v0 ; mxu.pop v4, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v0, v3, v4
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v5, [s0 + 16384]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v0, [s0 + 17408]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s1 + 1536]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 18432]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s0 + 19456]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.mm.bf16 mxu0, v1
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.pop v1, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v5, v2, v1 ; mxu.pop v4, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v1, v3, v4
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v5, [s0 + 18432]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v1, [s0 + 19456]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s0 + 16896]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 17920]
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.mm.bf16 mxu0, v0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.latch mxu0
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.pop v0, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v4, v1, v0 ; mxu.pop v3, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v0, v2, v3
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v4, [s0 + 16896]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v0, [s0 + 17920]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s0 + 18944]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s0 + 19968]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.pop v2, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v4, v0, v2 ; mxu.pop v3, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v0, v1, v3
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v4, [s0 + 18944]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v0, [s0 + 19968]
	.loc "kernels/matmul/matmul.pk" 30 5 region=matmul_small
	scmpi.eq p1, s3, 3
	.loc "kernels/matmul/matmul.pk" 30 5 region=matmul_small
	(!p1) br L359
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smovi s1, 0 ; smuli s5, s7, 4096
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smov s8, s1
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smuli s1, s8, 128 ; saddi s8, s8, 8
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	sadd s9, s5, s1 ; smuli s10, s8, 128 ; vld v0, [s1 + 16384]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	sadd s11, s5, s10 ; saddi s8, s8, 8 ; vld v1, [s1 + 16896]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smuli s1, s8, 128 ; saddi s8, s8, 8 ; vld v2, [s10 + 16384] ; vst v0, [s9 + 8192]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	sadd s14, s5, s1 ; smuli s12, s8, 128 ; vld v0, [s10 + 16896] ; vst v1, [s9 + 8704]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	sadd s9, s5, s12 ; saddi s8, s8, 8 ; vld v1, [s1 + 16384] ; vst v2, [s11 + 8192]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	vld v2, [s1 + 16896] ; vst v0, [s11 + 8704]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	vld v0, [s12 + 16384] ; vst v1, [s14 + 8192]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	vld v1, [s12 + 16896] ; vst v2, [s14 + 8704]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	vst v0, [s9 + 8192]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	vst v1, [s9 + 8704]
L359:
	.loc "" 0 0 region=matmul_small
	pnot p1, p4
	por p2, p1, p3
	(!p2) br L373
	smovi s1, 1 ; sld s5, [s0 + 260]
	ssub s8, s1, s7
	scmpi.ne p1, s5, 0
	(!p1) br L369
	scmpi.eq p1, s8, 0 ; scmpi.eq p2, s8, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L369:
	smovi s1, 1
	sst s1, [s0 + 260]
	sst s8, [s0 + 256]
	sst s1, [s0 + 264]
L373:
	sst s4, [s0 + 228]
	sst s3, [s0 + 232] ; (!p10) br L378
	smovi s1, 1
	ssub s5, s1, s13
	sst s5, [s0 + 216]
L378:
	sst s3, [s0 + 248]
	sst s2, [s0 + 252] ; (!p5) br L383
	smovi s1, 1
	ssub s5, s1, s6
	sst s5, [s0 + 236]
L383:
	sst s4, [s0 + 268] ; saddi s3, s3, 1
	sst s2, [s0 + 272] ; scmpi.lt p1, s3, 4
	(p1) br L113
	saddi s2, s2, 1
	scmpi.lt p1, s2, 2
	(p1) br L111
	saddi s4, s4, 1
	scmpi.lt p1, s4, 4
	(p1) br L109
	sld s1, [s0 + 264]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L409
	sld s1, [s0 + 268] ; sld s2, [s0 + 272]
	sld s3, [s0 + 256] ; smovi s4, 1
	smuli s5, s1, 32 ; smuli s6, s2, 32
	ssub s1, s4, s3 ; smuli s2, s6, 4
	smuli s3, s1, 4096 ; smuli s4, s5, 256
	sadd s5, s2, s4 ; sld s6, [s0 + 16]
	sld s2, [s0 + 20] ; saddi s4, s3, 8192
	sadd s3, s6, s5 ; sst s4, [s0 + 640]
	sst s2, [s0 + 652] ; saddi s4, s3, 0
	sst s4, [s0 + 648] ; scmpi.eq p1, s1, 0
	scmpi.eq p2, s1, 1 ; smovi s2, 0 ; (p1) dma.start f4, [s0 + 640]
	(p2) dma.start f5, [s0 + 640]
	sst s2, [s0 + 264]
L409:
	sld s1, [s0 + 256] ; sld s2, [s0 + 260]
	smovi s0, 1
	ssub s3, s0, s1 ; scmpi.ne p1, s2, 0
	(!p1) br L416
	scmpi.eq p1, s3, 0 ; scmpi.eq p2, s3, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L416:
	halt ; trace.end matmul_small
L417:
	.loc "" 0 0 region=matmul_f32_small
	smovi s0, 0 ; smovi s1, 1089 ; trace.begin matmul_f32_small
	sst s1, [s0 + 336] ; smovi s2, 16
	sst s2, [s0 + 340] ; smovi s3, 8
	sst s3, [s0 + 344] ; smovi s4, 2
	sst s4, [s0 + 348] ; smovi s5, 4
	sst s5, [s0 + 352] ; smovi s6, 256
	sst s6, [s0 + 356] ; smovi s7, 64
	sst s7, [s0 + 368] ; smovi s8, 512
	sst s7, [s0 + 360] ; smovi s9, 2048
	sst s8, [s0 + 372] ; smovi s10, 1024
	sst s9, [s0 + 364] ; smovi s11, 1090
	sst s10, [s0 + 376]
	sst s0, [s0 + 380]
	sst s0, [s0 + 332]
	sst s1, [s0 + 400]
	sst s2, [s0 + 404]
	sst s3, [s0 + 408]
	sst s4, [s0 + 412]
	sst s5, [s0 + 416]
	sst s6, [s0 + 420]
	sst s7, [s0 + 432]
	sst s7, [s0 + 424]
	sst s8, [s0 + 436]
	sst s9, [s0 + 428]
	sst s10, [s0 + 440]
	sst s0, [s0 + 444]
	sst s0, [s0 + 396]
	sst s1, [s0 + 464]
	sst s2, [s0 + 468]
	sst s3, [s0 + 472]
	sst s4, [s0 + 476]
	sst s5, [s0 + 480]
	sst s6, [s0 + 484]
	sst s7, [s0 + 496]
	sst s7, [s0 + 488]
	sst s8, [s0 + 500]
	sst s9, [s0 + 492]
	sst s10, [s0 + 504]
	sst s0, [s0 + 508]
	sst s0, [s0 + 460]
	sst s1, [s0 + 528]
	sst s2, [s0 + 532]
	sst s3, [s0 + 536]
	sst s4, [s0 + 540]
	sst s5, [s0 + 544]
	sst s6, [s0 + 548]
	sst s7, [s0 + 560]
	sst s7, [s0 + 552]
	sst s8, [s0 + 564]
	sst s9, [s0 + 556]
	sst s10, [s0 + 568]
	sst s0, [s0 + 572]
	sst s0, [s0 + 524]
	sst s11, [s0 + 592]
	sst s2, [s0 + 596]
	sst s3, [s0 + 600]
	sst s4, [s0 + 604]
	sst s5, [s0 + 608]
	sst s7, [s0 + 612]
	sst s6, [s0 + 624]
	sst s8, [s0 + 616]
	sst s7, [s0 + 628]
	sst s10, [s0 + 620]
	sst s9, [s0 + 632]
	sst s0, [s0 + 636]
	sst s0, [s0 + 580]
	sst s11, [s0 + 656]
	sst s2, [s0 + 660]
	sst s3, [s0 + 664]
	sst s4, [s0 + 668]
	sst s5, [s0 + 672]
	sst s7, [s0 + 676]
	sst s6, [s0 + 688]
	sst s8, [s0 + 680]
	sst s7, [s0 + 692]
	sst s10, [s0 + 684]
	sst s9, [s0 + 696]
	sst s0, [s0 + 700]
	sst s0, [s0 + 644]
	smovi s1, 0 ; smovi s2, -2147483648
	sst s1, [s0 + 216] ; scmpi.eq p1, s1, 0
	sst s1, [s0 + 220] ; scmpi.eq p2, s1, 1
	sst s1, [s0 + 224] ; smovi s3, 8192
	sst s2, [s0 + 228] ; smov s4, s1
	sst s2, [s0 + 232]
	sld s5, [s0] ; sld s6, [s0 + 4]
	nop
	sst s6, [s0 + 324] ; saddi s7, s5, 0
	sst s7, [s0 + 320]
	sst s1, [s0 + 328]
	(p1) dma.start f0, [s0 + 320]
	(p2) dma.start f1, [s0 + 320]
	sst s1, [s0 + 236]
	sst s1, [s0 + 240]
	sst s1, [s0 + 244]
	sst s2, [s0 + 248]
	sst s2, [s0 + 252]
	sld s5, [s0 + 8] ; sld s6, [s0 + 12]
	nop
	sst s6, [s0 + 388] ; saddi s7, s5, 0
	sst s7, [s0 + 384]
	sst s3, [s0 + 392]
	(p1) dma.start f2, [s0 + 384]
	(p2) dma.start f3, [s0 + 384]
	sst s1, [s0 + 256]
	sst s1, [s0 + 260]
	sst s1, [s0 + 264]
	sst s2, [s0 + 268]
	sst s2, [s0 + 272]
L526:
	smovi s1, 0
	smov s2, s1
L528:
	smovi s1, 0
	smov s3, s1
L530:
	saddi s1, s3, 1 ; saddi s5, s2, 1
	scmpi.eq p1, s1, 2 ; saddi s6, s4, 1
	smovi s7, 0 ; ssel s8, p1, s5, s2
	ssel s5, p1, s7, s1 ; scmpi.eq p2, s8, 2
	ssel s1, p2, s7, s8 ; pand p3, p1, p2
	ssel s8, p3, s6, s4 ; sld s9, [s0 + 228]
	scmpi.eq p1, s8, 2 ; sld s6, [s0 + 232]
	ssel s10, p1, s7, s8 ; pand p2, p3, p1
	scmp.ne p1, s4, s10 ; scmp.ne p3, s3, s5
	sld s7, [s0 + 248] ; sld s8, [s0 + 252]
	sld s11, [s0 + 268] ; sld s12, [s0 + 272]
	pnot p4, p2 ; scmpi.eq p5, s4, 0
	scmpi.eq p2, s2, 0 ; por p6, p1, p3
	pand p7, p5, p2 ; scmp.ne p8, s2, s1
	scmpi.eq p2, s3, 0 ; sld s13, [s0 + 216]
	scmp.ne p5, s4, s9 ; scmp.ne p9, s3, s6
	pand p10, p4, p6 ; sld s6, [s0 + 236]
	scmp.ne p6, s3, s7 ; scmp.ne p11, s2, s8
	por p12, p3, p8 ; sld s7, [s0 + 256]
	scmp.ne p3, s4, s11 ; scmp.ne p13, s2, s12
	pand p14, p7, p2 ; por p15, p1, p8
	por p1, p5, p9 ; por p2, p6, p11
	pand p5, p4, p12 ; por p6, p3, p13
	pand p3, p4, p15 ; (!p10) br L565
	smuli s8, s10, 32 ; smuli s9, s5, 32
	smuli s10, s9, 4 ; smuli s11, s8, 256
	smovi s8, 1 ; sld s9, [s0]
	sadd s12, s10, s11 ; sld s14, [s0 + 4]
	ssub s10, s8, s13 ; sadd s11, s9, s12
	smuli s8, s10, 4096 ; sst s14, [s0 + 452]
	saddi s9, s11, 0 ; saddi s12, s8, 0
	sst s9, [s0 + 448] ; scmpi.eq p6, s10, 0
	sst s12, [s0 + 456] ; scmpi.eq p7, s10, 1
	(p6) dma.start f0, [s0 + 448]
	(p7) dma.start f1, [s0 + 448]
L565:
	(!p5) br L577
	smuli s8, s5, 32 ; smuli s9, s1, 32
	smuli s1, s9, 4 ; smuli s5, s8, 256
	smovi s8, 1 ; sld s9, [s0 + 8]
	sadd s10, s1, s5 ; sld s11, [s0 + 12]
	ssub s1, s8, s6 ; sadd s5, s9, s10
	smuli s8, s1, 4096 ; sst s11, [s0 + 516]
	saddi s9, s5, 0 ; saddi s10, s8, 8192
	sst s9, [s0 + 512] ; scmpi.eq p6, s1, 0
	sst s10, [s0 + 520] ; scmpi.eq p7, s1, 1
	(p6) dma.start f2, [s0 + 512]
	(p7) dma.start f3, [s0 + 512]
L577:
	sld s1, [s0 + 264]
	nop
	scmpi.ne p6, s1, 0
	(!p6) br L594
	sld s1, [s0 + 268] ; sld s5, [s0 + 272]
	sld s8, [s0 + 256] ; smovi s9, 1
	smuli s10, s1, 32 ; smuli s11, s5, 32
	ssub s1, s9, s8 ; smuli s5, s11, 4
	smuli s8, s1, 4096 ; smuli s9, s10, 256
	sadd s10, s5, s9 ; sld s11, [s0 + 16]
	sld s5, [s0 + 20] ; saddi s9, s8, 16384
	sadd s8, s11, s10 ; sst s9, [s0 + 576]
	sst s5, [s0 + 588] ; saddi s9, s8, 0
	sst s9, [s0 + 584] ; scmpi.eq p6, s1, 0
	scmpi.eq p7, s1, 1 ; smovi s5, 0 ; (p6) dma.start f4, [s0 + 576]
	(p7) dma.start f5, [s0 + 576]
	sst s5, [s0 + 264]
L594:
	(!p1) br L598
	scmpi.eq p1, s13, 0 ; scmpi.eq p6, s13, 1
	(p1) sync.take f0, 1
	(p6) sync.take f1, 1
L598:
	(!p2) br L602
	scmpi.eq p1, s6, 0 ; scmpi.eq p2, s6, 1
	(p1) sync.take f2, 1
	(p2) sync.take f3, 1
L602:
	.loc "kernels/matmul/matmul.pk" 61 5 region=matmul_f32_small
	scmpi.eq p1, s3, 0
	.loc "kernels/matmul/matmul.pk" 61 5 region=matmul_f32_small
	(!p1) br L615
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smovi s1, 0 ; vbcasti v0, 0
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smov s5, s1
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smuli s1, s5, 128 ; saddi s5, s5, 8
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smuli s8, s5, 128 ; saddi s5, s5, 8 ; vst v0, [s1 + 24576]
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smuli s9, s5, 128 ; saddi s5, s5, 8 ; vst v0, [s1 + 25088]
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smuli s1, s5, 128 ; saddi s5, s5, 8 ; vst v0, [s8 + 24576]
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	vst v0, [s8 + 25088]
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	vst v0, [s9 + 24576]
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	vst v0, [s9 + 25088]
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	vst v0, [s1 + 24576]
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	vst v0, [s1 + 25088]
L615:
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	smuli s1, s13, 4096 ; smuli s5, s6, 4096
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s5 + 8192]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v1, [s5 + 9216]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s1] ; mxu.push mxu0, v0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s1 + 1024] ; mxu.push mxu0, v1
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v1, [s1 + 2048] ; mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v3, [s1 + 3072] ; mxu.mm mxu0, v2, prec=highest
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s5 + 8704]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v5, [s5 + 9728]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v6, [s0 + 24576] ; mxu.push mxu0, v4
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s5 + 10240] ; mxu.push mxu0, v5
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v0, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v0, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v5, v6, v0
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v5, [s0 + 24576]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s1 + 1024]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v5, [s0 + 25600]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v1, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v1, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v6, v5, v1
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v6, [s0 + 25600]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v1, [s1 + 2048]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v5, [s0 + 26624]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v6, [s5 + 11264]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v3, prec=highest
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.push mxu0, v4
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.push mxu0, v6
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v3, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v4, v5, v3
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v4, [s0 + 26624]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v3, [s1 + 3072]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 27648]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v2, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v2, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v5, v4, v2
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v5, [s0 + 27648]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s1 + 512]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 25088]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v5, [s5 + 10752]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v0, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v0, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v6, v4, v0
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v6, [s0 + 25088]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s1 + 1536]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 26112]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v1, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v1, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v6, v4, v1
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v6, [s0 + 26112]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v1, [s1 + 2560]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 27136]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v6, [s5 + 11776]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v3, prec=highest
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.push mxu0, v5
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.push mxu0, v6
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v3, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v5, v4, v3
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v5, [s0 + 27136]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v3, [s1 + 3584]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 28160]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v2, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v2, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v5, v4, v2
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v5, [s0 + 28160]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s1 + 512]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 24576]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v5, [s5 + 8192]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v0, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v0, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v6, v4, v0
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v6, [s0 + 24576]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s1 + 1536]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 25600]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v1, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v1, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v6, v4, v1
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v6, [s0 + 25600]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v1, [s1 + 2560]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 26624]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v6, [s5 + 9216]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v3, prec=highest
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.push mxu0, v5
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.push mxu0, v6
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v3, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v5, v4, v3
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v5, [s0 + 26624]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v3, [s1 + 3584]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 27648]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v2, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v2, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v5, v4, v2
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v5, [s0 + 27648]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s0 + 25088]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v0, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v0, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v4, v2, v0
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v4, [s0 + 25088]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s0 + 26112]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v1, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v1, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v2, v0, v1
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v2, [s0 + 26112]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s0 + 27136]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.mm mxu0, v3, prec=highest
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.latch mxu0
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v1, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v2, v0, v1
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v2, [s0 + 27136]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s0 + 28160]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v1, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v2, v0, v1
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v2, [s0 + 28160]
	.loc "kernels/matmul/matmul.pk" 63 5 region=matmul_f32_small
	scmpi.eq p1, s3, 1
	.loc "kernels/matmul/matmul.pk" 63 5 region=matmul_f32_small
	(!p1) br L1416
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smovi s1, 0 ; smuli s5, s7, 4096
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smov s8, s1
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smuli s1, s8, 128 ; saddi s8, s8, 8
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	sadd s9, s5, s1 ; smuli s10, s8, 128 ; vld v0, [s1 + 24576]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	sadd s11, s5, s10 ; saddi s8, s8, 8 ; vld v1, [s1 + 25088]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smuli s1, s8, 128 ; saddi s8, s8, 8 ; vld v2, [s10 + 24576] ; vst v0, [s9 + 16384]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	sadd s14, s5, s1 ; smuli s12, s8, 128 ; vld v0, [s10 + 25088] ; vst v1, [s9 + 16896]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	sadd s9, s5, s12 ; saddi s8, s8, 8 ; vld v1, [s1 + 24576] ; vst v2, [s11 + 16384]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	vld v2, [s1 + 25088] ; vst v0, [s11 + 16896]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	vld v0, [s12 + 24576] ; vst v1, [s14 + 16384]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	vld v1, [s12 + 25088] ; vst v2, [s14 + 16896]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	vst v0, [s9 + 16384]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	vst v1, [s9 + 16896]
L1416:
	.loc "" 0 0 region=matmul_f32_small
	pnot p1, p4
	por p2, p1, p3
	(!p2) br L1430
	smovi s1, 1 ; sld s5, [s0 + 260]
	ssub s8, s1, s7
	scmpi.ne p1, s5, 0
	(!p1) br L1426
	scmpi.eq p1, s8, 0 ; scmpi.eq p2, s8, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L1426:
	smovi s1, 1
	sst s1, [s0 + 260]
	sst s8, [s0 + 256]
	sst s1, [s0 + 264]
L1430:
	sst s4, [s0 + 228]
	sst s3, [s0 + 232] ; (!p10) br L1435
	smovi s1, 1
	ssub s5, s1, s13
	sst s5, [s0 + 216]
L1435:
	sst s3, [s0 + 248]
	sst s2, [s0 + 252] ; (!p5) br L1440
	smovi s1, 1
	ssub s5, s1, s6
	sst s5, [s0 + 236]
L1440:
	sst s4, [s0 + 268] ; saddi s3, s3, 1
	sst s2, [s0 + 272] ; scmpi.lt p1, s3, 2
	(p1) br L530
	saddi s2, s2, 1
	scmpi.lt p1, s2, 2
	(p1) br L528
	saddi s4, s4, 1
	scmpi.lt p1, s4, 2
	(p1) br L526
	sld s1, [s0 + 264]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L1466
	sld s1, [s0 + 268] ; sld s2, [s0 + 272]
	sld s3, [s0 + 256] ; smovi s4, 1
	smuli s5, s1, 32 ; smuli s6, s2, 32
	ssub s1, s4, s3 ; smuli s2, s6, 4
	smuli s3, s1, 4096 ; smuli s4, s5, 256
	sadd s5, s2, s4 ; sld s6, [s0 + 16]
	sld s2, [s0 + 20] ; saddi s4, s3, 16384
	sadd s3, s6, s5 ; sst s4, [s0 + 640]
	sst s2, [s0 + 652] ; saddi s4, s3, 0
	sst s4, [s0 + 648] ; scmpi.eq p1, s1, 0
	scmpi.eq p2, s1, 1 ; smovi s2, 0 ; (p1) dma.start f4, [s0 + 640]
	(p2) dma.start f5, [s0 + 640]
	sst s2, [s0 + 264]
L1466:
	sld s1, [s0 + 256] ; sld s2, [s0 + 260]
	smovi s0, 1
	ssub s3, s0, s1 ; scmpi.ne p1, s2, 0
	(!p1) br L1473
	scmpi.eq p1, s3, 0 ; scmpi.eq p2, s3, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L1473:
	halt ; trace.end matmul_f32_small
