# matmul_small: VMEM 20480 of 262144 bytes; SMEM 704 of 4096 bytes
# matmul_f32_small: VMEM 28672 of 262144 bytes; SMEM 704 of 4096 bytes
# 1469 bundles, 1168 ops
.preset small
.region matmul_small
.region matmul_f32_small
.entry matmul_small pc=L0
.operand x in bf16[128,128] smem=0
.operand y in bf16[128,64] smem=8
.operand z out f32[128,64] smem=16
.entry matmul_f32_small pc=L415
.operand x in f32[64,64] smem=0
.operand y in f32[64,64] smem=8
.operand z out f32[64,64] smem=16

L0:
	.loc "" 0 0 region=matmul_small
	smovi s0, 0 ; smovi s1, 66081 ; trace.begin matmul_small
	sst s1, [s0 + 336] ; smovi s2, 32
	sst s2, [s0 + 340] ; smovi s1, 32
	sst s1, [s0 + 344] ; smovi s2, 1
	sst s2, [s0 + 348] ; smovi s1, 1
	sst s1, [s0 + 352] ; smovi s2, 256
	sst s2, [s0 + 356] ; smovi s1, 1024
	sst s1, [s0 + 368] ; smovi s2, 0
	sst s2, [s0 + 360] ; smovi s1, 0
	sst s1, [s0 + 372] ; smovi s2, 0
	sst s2, [s0 + 364] ; smovi s1, 0
	sst s1, [s0 + 376] ; smovi s2, 0
	sst s2, [s0 + 380] ; smovi s1, 0
	sst s1, [s0 + 332] ; smovi s2, 66081
	sst s2, [s0 + 400] ; smovi s1, 32
	sst s1, [s0 + 404] ; smovi s2, 32
	sst s2, [s0 + 408] ; smovi s1, 1
	sst s1, [s0 + 412] ; smovi s2, 1
	sst s2, [s0 + 416] ; smovi s1, 128
	sst s1, [s0 + 420] ; smovi s2, 1024
	sst s2, [s0 + 432] ; smovi s1, 0
	sst s1, [s0 + 424] ; smovi s2, 0
	sst s2, [s0 + 436] ; smovi s1, 0
	sst s1, [s0 + 428] ; smovi s2, 0
	sst s2, [s0 + 440] ; smovi s1, 0
	sst s1, [s0 + 444] ; smovi s2, 0
	sst s2, [s0 + 396] ; smovi s1, 66081
	sst s1, [s0 + 464] ; smovi s2, 32
	sst s2, [s0 + 468] ; smovi s1, 32
	sst s1, [s0 + 472] ; smovi s2, 1
	sst s2, [s0 + 476] ; smovi s1, 1
	sst s1, [s0 + 480] ; smovi s2, 256
	sst s2, [s0 + 484] ; smovi s1, 1024
	sst s1, [s0 + 496] ; smovi s2, 0
	sst s2, [s0 + 488] ; smovi s1, 0
	sst s1, [s0 + 500] ; smovi s2, 0
	sst s2, [s0 + 492] ; smovi s1, 0
	sst s1, [s0 + 504] ; smovi s2, 0
	sst s2, [s0 + 508] ; smovi s1, 0
	sst s1, [s0 + 460] ; smovi s2, 66081
	sst s2, [s0 + 528] ; smovi s1, 32
	sst s1, [s0 + 532] ; smovi s2, 32
	sst s2, [s0 + 536] ; smovi s1, 1
	sst s1, [s0 + 540] ; smovi s2, 1
	sst s2, [s0 + 544] ; smovi s1, 128
	sst s1, [s0 + 548] ; smovi s2, 1024
	sst s2, [s0 + 560] ; smovi s1, 0
	sst s1, [s0 + 552] ; smovi s2, 0
	sst s2, [s0 + 564] ; smovi s1, 0
	sst s1, [s0 + 556] ; smovi s2, 0
	sst s2, [s0 + 568] ; smovi s1, 0
	sst s1, [s0 + 572] ; smovi s2, 0
	sst s2, [s0 + 524] ; smovi s1, 1090
	sst s1, [s0 + 592] ; smovi s2, 16
	sst s2, [s0 + 596] ; smovi s1, 8
	sst s1, [s0 + 600] ; smovi s2, 2
	sst s2, [s0 + 604] ; smovi s1, 4
	sst s1, [s0 + 608] ; smovi s2, 64
	sst s2, [s0 + 612] ; smovi s1, 256
	sst s1, [s0 + 624] ; smovi s2, 512
	sst s2, [s0 + 616] ; smovi s1, 64
	sst s1, [s0 + 628] ; smovi s2, 1024
	sst s2, [s0 + 620] ; smovi s1, 2048
	sst s1, [s0 + 632] ; smovi s2, 0
	sst s2, [s0 + 636] ; smovi s1, 0
	sst s1, [s0 + 580] ; smovi s2, 1090
	sst s2, [s0 + 656] ; smovi s1, 16
	sst s1, [s0 + 660] ; smovi s2, 8
	sst s2, [s0 + 664] ; smovi s1, 2
	sst s1, [s0 + 668] ; smovi s2, 4
	sst s2, [s0 + 672] ; smovi s1, 64
	sst s1, [s0 + 676] ; smovi s2, 256
	sst s2, [s0 + 688] ; smovi s1, 512
	sst s1, [s0 + 680] ; smovi s2, 64
	sst s2, [s0 + 692] ; smovi s1, 1024
	sst s1, [s0 + 684] ; smovi s2, 2048
	sst s2, [s0 + 696] ; smovi s1, 0
	sst s1, [s0 + 700] ; smovi s2, 0
	sst s2, [s0 + 644]
	smovi s1, 0 ; smovi s2, 0
	sst s1, [s0 + 216] ; smovi s3, 0
	sst s2, [s0 + 220] ; smovi s1, -2147483648
	sst s3, [s0 + 224] ; smovi s2, -2147483648
	sst s1, [s0 + 228] ; smovi s3, 0
	sst s2, [s0 + 232] ; smovi s1, 0
	smuli s2, s1, 2 ; smuli s4, s3, 256
	sadd s1, s2, s4 ; sld s3, [s0]
	sld s2, [s0 + 4] ; smovi s4, 0
	sadd s5, s3, s1 ; smovi s6, 0
	sst s2, [s0 + 324] ; saddi s1, s5, 0
	sst s1, [s0 + 320] ; scmpi.eq p1, s6, 0
	sst s4, [s0 + 328] ; scmpi.eq p2, s6, 1
	smovi s1, 0 ; smovi s2, 0 ; (p1) dma.start f0, [s0 + 320]
	smovi s3, 0 ; smovi s4, -2147483648 ; (p2) dma.start f1, [s0 + 320]
	sst s1, [s0 + 236] ; smovi s5, -2147483648
	sst s2, [s0 + 240] ; smovi s1, 0
	sst s3, [s0 + 244] ; smovi s2, 0
	sst s4, [s0 + 248] ; smuli s3, s2, 2
	sst s5, [s0 + 252] ; smuli s2, s1, 128
	sadd s1, s3, s2 ; sld s4, [s0 + 8]
	sld s2, [s0 + 12] ; smovi s3, 4096
	sadd s5, s4, s1 ; smovi s6, 0
	sst s2, [s0 + 388] ; saddi s1, s5, 0
	sst s1, [s0 + 384] ; scmpi.eq p1, s6, 0
	sst s3, [s0 + 392] ; scmpi.eq p2, s6, 1
	smovi s1, 0 ; smovi s2, 0 ; (p1) dma.start f2, [s0 + 384]
	smovi s3, 0 ; smovi s4, -2147483648 ; (p2) dma.start f3, [s0 + 384]
	sst s1, [s0 + 256] ; smovi s5, -2147483648
	sst s2, [s0 + 260] ; smovi s1, 0
	sst s3, [s0 + 264] ; smov s2, s1
	sst s4, [s0 + 268]
	sst s5, [s0 + 272]
L112:
	smovi s1, 0
	smov s3, s1
L114:
	smovi s1, 0
	smov s4, s1
L116:
	saddi s1, s4, 1 ; saddi s5, s3, 1
	scmpi.eq p1, s1, 4 ; saddi s6, s2, 1
	smovi s7, 0 ; ssel s8, p1, s5, s3
	scmpi.eq p2, s8, 2 ; smovi s5, 0
	ssel s9, p1, s7, s1 ; pand p3, p1, p2
	smovi s1, 0 ; ssel s7, p3, s6, s2
	ssel s6, p2, s1, s8 ; scmpi.eq p1, s7, 4
	ssel s1, p1, s5, s7 ; pand p2, p3, p1
	sld s5, [s0 + 228] ; sld s7, [s0 + 232]
	scmp.ne p1, s2, s1 ; scmp.ne p3, s4, s9
	sld s8, [s0 + 248] ; sld s10, [s0 + 252]
	sld s11, [s0 + 268] ; sld s12, [s0 + 272]
	pnot p4, p2 ; scmpi.eq p5, s2, 0
	scmpi.eq p2, s3, 0 ; por p6, p1, p3
	scmp.ne p1, s4, s9 ; scmp.ne p3, s3, s6
	scmp.ne p7, s2, s1 ; scmp.ne p8, s3, s6
	pand p9, p5, p2 ; scmpi.eq p10, s4, 0
	sld s13, [s0 + 216] ; scmp.ne p2, s2, s5
	scmp.ne p5, s4, s7 ; pand p11, p4, p6
	sld s5, [s0 + 236] ; scmp.ne p6, s4, s8
	scmp.ne p12, s3, s10 ; por p13, p1, p3
	sld s7, [s0 + 256] ; scmp.ne p1, s2, s11
	scmp.ne p3, s3, s12 ; por p14, p7, p8
	pand p7, p9, p10 ; por p8, p2, p5
	por p2, p6, p12 ; pand p5, p4, p13
	por p6, p1, p3 ; pand p7, p4, p14
	(!p11) br L155
	smuli s8, s1, 32 ; smuli s10, s9, 32
	smuli s1, s10, 2 ; smuli s11, s8, 256
	smovi s8, 1 ; sld s10, [s0]
	sadd s12, s1, s11 ; sld s14, [s0 + 4]
	ssub s1, s8, s13 ; sadd s11, s10, s12
	smovi s8, 1 ; smuli s10, s1, 2048
	sst s14, [s0 + 452] ; saddi s12, s11, 0
	ssub s11, s8, s13 ; sst s12, [s0 + 448]
	saddi s8, s10, 0 ; scmpi.eq p1, s11, 0
	sst s8, [s0 + 456] ; scmpi.eq p3, s11, 1
	smuli s8, s1, 2048 ; (p1) dma.start f0, [s0 + 448]
	(p3) dma.start f1, [s0 + 448]
L155:
	(!p5) br L168
	smuli s1, s9, 32 ; smuli s8, s6, 32
	smuli s6, s8, 2 ; smuli s9, s1, 128
	smovi s1, 1 ; sld s8, [s0 + 8]
	sadd s10, s6, s9 ; sld s11, [s0 + 12]
	ssub s6, s1, s5 ; sadd s9, s8, s10
	smovi s1, 1 ; smuli s8, s6, 2048
	sst s11, [s0 + 516] ; saddi s10, s9, 0
	ssub s9, s1, s5 ; sst s10, [s0 + 512]
	saddi s1, s8, 4096 ; scmpi.eq p1, s9, 0
	sst s1, [s0 + 520] ; scmpi.eq p3, s9, 1
	smuli s1, s6, 2048 ; (p1) dma.start f2, [s0 + 512]
	(p3) dma.start f3, [s0 + 512]
L168:
	sld s1, [s0 + 264]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L185
	sld s1, [s0 + 268] ; sld s6, [s0 + 272]
	sld s8, [s0 + 256] ; smovi s9, 1
	smuli s10, s1, 32 ; smuli s11, s6, 32
	ssub s1, s9, s8 ; smuli s6, s11, 4
	smuli s8, s1, 4096 ; smuli s9, s10, 256
	sadd s10, s6, s9 ; sld s11, [s0 + 16]
	sld s6, [s0 + 20] ; saddi s9, s8, 8192
	sadd s8, s11, s10 ; sst s9, [s0 + 576]
	sst s6, [s0 + 588] ; saddi s9, s8, 0
	sst s9, [s0 + 584] ; scmpi.eq p1, s1, 0
	scmpi.eq p3, s1, 1 ; smovi s6, 0 ; (p1) dma.start f4, [s0 + 576]
	(p3) dma.start f5, [s0 + 576]
	sst s6, [s0 + 264]
L185:
	(!p8) br L189
	scmpi.eq p1, s13, 0 ; scmpi.eq p3, s13, 1
	(p1) sync.take f0, 1
	(p3) sync.take f1, 1
L189:
	(!p2) br L193
	scmpi.eq p1, s5, 0 ; scmpi.eq p2, s5, 1
	(p1) sync.take f2, 1
	(p2) sync.take f3, 1
L193:
	.loc "kernels/matmul/matmul.pk" 28 5 region=matmul_small
	scmpi.eq p1, s4, 0
	.loc "kernels/matmul/matmul.pk" 28 5 region=matmul_small
	(!p1) br L201
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smovi s1, 0
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smov s6, s1
L197:
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smuli s1, s6, 128 ; saddi s6, s6, 8 ; vbcasti v0, 0
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	scmpi.lt p1, s6, 32
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	vst v0, [s1 + 16384]
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	(p1) br L197 ; vst v0, [s1 + 16896]
L201:
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	smuli s1, s13, 2048 ; smuli s6, s13, 2048
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	smuli s1, s5, 2048 ; smuli s8, s5, 2048
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s8 + 4096]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s6]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s6 + 1024] ; mxu.push.bf16 mxu0, v0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s8 + 4608] ; mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s6] ; mxu.mm.bf16 mxu0, v1
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s0 + 16384] ; mxu.push.bf16 mxu0, v0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s0 + 17408]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v4, [s8 + 5120]
	nop
	nop
	nop
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
	mxu.push.bf16 mxu0, v4
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.pop v2, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v5, v1, v2 ; mxu.pop v4, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v1, v0, v4
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v5, [s0 + 16384]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v1, [s0 + 17408]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s6 + 1024]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s0 + 18432]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 19456]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.mm.bf16 mxu0, v3
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	mxu.pop v3, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v5, v1, v3 ; mxu.pop v4, mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vadd.f32 v1, v2, v4
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v5, [s0 + 18432]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vst v1, [s0 + 19456]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s6 + 512]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 16896]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s0 + 17920]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v4, [s8 + 5632] ; mxu.mm.bf16 mxu0, v0
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
	vld v0, [s6 + 1536]
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
	vld v1, [s6 + 512]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 16384]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s0 + 17408]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v4, [s8 + 4096] ; mxu.mm.bf16 mxu0, v0
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
	vld v0, [s6 + 1536]
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
	scmpi.eq p1, s4, 3
	.loc "kernels/matmul/matmul.pk" 30 5 region=matmul_small
	(!p1) br L357
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smovi s1, 0
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smov s6, s1
L352:
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smuli s1, s6, 128 ; smuli s8, s7, 4096
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smuli s9, s6, 128 ; saddi s6, s6, 8 ; vld v0, [s1 + 16384]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	sadd s10, s8, s9 ; scmpi.lt p1, s6, 32 ; vld v1, [s1 + 16896]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	vst v0, [s10 + 8192]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	(p1) br L352 ; vst v1, [s10 + 8704]
L357:
	.loc "" 0 0 region=matmul_small
	pnot p1, p4
	por p2, p1, p7
	(!p2) br L371
	smovi s1, 1 ; sld s6, [s0 + 260]
	ssub s8, s1, s7
	scmpi.ne p1, s6, 0
	(!p1) br L367
	scmpi.eq p1, s8, 0 ; scmpi.eq p2, s8, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L367:
	smovi s1, 1 ; smovi s6, 1
	sst s1, [s0 + 260]
	sst s8, [s0 + 256]
	sst s6, [s0 + 264]
L371:
	sst s2, [s0 + 228]
	sst s4, [s0 + 232] ; (!p11) br L376
	smovi s1, 1
	ssub s6, s1, s13
	sst s6, [s0 + 216]
L376:
	sst s4, [s0 + 248]
	sst s3, [s0 + 252] ; (!p5) br L381
	smovi s1, 1
	ssub s6, s1, s5
	sst s6, [s0 + 236]
L381:
	sst s2, [s0 + 268] ; saddi s4, s4, 1
	sst s3, [s0 + 272] ; scmpi.lt p1, s4, 4
	(p1) br L116
	saddi s3, s3, 1
	scmpi.lt p1, s3, 2
	(p1) br L114
	saddi s2, s2, 1
	scmpi.lt p1, s2, 4
	(p1) br L112
	sld s1, [s0 + 264]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L407
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
L407:
	sld s1, [s0 + 256] ; sld s2, [s0 + 260]
	smovi s0, 1
	ssub s3, s0, s1 ; scmpi.ne p1, s2, 0
	(!p1) br L414
	scmpi.eq p1, s3, 0 ; scmpi.eq p2, s3, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L414:
	halt ; trace.end matmul_small
L415:
	.loc "" 0 0 region=matmul_f32_small
	smovi s0, 0 ; smovi s1, 1089 ; trace.begin matmul_f32_small
	sst s1, [s0 + 336] ; smovi s2, 16
	sst s2, [s0 + 340] ; smovi s1, 8
	sst s1, [s0 + 344] ; smovi s2, 2
	sst s2, [s0 + 348] ; smovi s1, 4
	sst s1, [s0 + 352] ; smovi s2, 256
	sst s2, [s0 + 356] ; smovi s1, 64
	sst s1, [s0 + 368] ; smovi s2, 64
	sst s2, [s0 + 360] ; smovi s1, 512
	sst s1, [s0 + 372] ; smovi s2, 2048
	sst s2, [s0 + 364] ; smovi s1, 1024
	sst s1, [s0 + 376] ; smovi s2, 0
	sst s2, [s0 + 380] ; smovi s1, 0
	sst s1, [s0 + 332] ; smovi s2, 1089
	sst s2, [s0 + 400] ; smovi s1, 16
	sst s1, [s0 + 404] ; smovi s2, 8
	sst s2, [s0 + 408] ; smovi s1, 2
	sst s1, [s0 + 412] ; smovi s2, 4
	sst s2, [s0 + 416] ; smovi s1, 256
	sst s1, [s0 + 420] ; smovi s2, 64
	sst s2, [s0 + 432] ; smovi s1, 64
	sst s1, [s0 + 424] ; smovi s2, 512
	sst s2, [s0 + 436] ; smovi s1, 2048
	sst s1, [s0 + 428] ; smovi s2, 1024
	sst s2, [s0 + 440] ; smovi s1, 0
	sst s1, [s0 + 444] ; smovi s2, 0
	sst s2, [s0 + 396] ; smovi s1, 1089
	sst s1, [s0 + 464] ; smovi s2, 16
	sst s2, [s0 + 468] ; smovi s1, 8
	sst s1, [s0 + 472] ; smovi s2, 2
	sst s2, [s0 + 476] ; smovi s1, 4
	sst s1, [s0 + 480] ; smovi s2, 256
	sst s2, [s0 + 484] ; smovi s1, 64
	sst s1, [s0 + 496] ; smovi s2, 64
	sst s2, [s0 + 488] ; smovi s1, 512
	sst s1, [s0 + 500] ; smovi s2, 2048
	sst s2, [s0 + 492] ; smovi s1, 1024
	sst s1, [s0 + 504] ; smovi s2, 0
	sst s2, [s0 + 508] ; smovi s1, 0
	sst s1, [s0 + 460] ; smovi s2, 1089
	sst s2, [s0 + 528] ; smovi s1, 16
	sst s1, [s0 + 532] ; smovi s2, 8
	sst s2, [s0 + 536] ; smovi s1, 2
	sst s1, [s0 + 540] ; smovi s2, 4
	sst s2, [s0 + 544] ; smovi s1, 256
	sst s1, [s0 + 548] ; smovi s2, 64
	sst s2, [s0 + 560] ; smovi s1, 64
	sst s1, [s0 + 552] ; smovi s2, 512
	sst s2, [s0 + 564] ; smovi s1, 2048
	sst s1, [s0 + 556] ; smovi s2, 1024
	sst s2, [s0 + 568] ; smovi s1, 0
	sst s1, [s0 + 572] ; smovi s2, 0
	sst s2, [s0 + 524] ; smovi s1, 1090
	sst s1, [s0 + 592] ; smovi s2, 16
	sst s2, [s0 + 596] ; smovi s1, 8
	sst s1, [s0 + 600] ; smovi s2, 2
	sst s2, [s0 + 604] ; smovi s1, 4
	sst s1, [s0 + 608] ; smovi s2, 64
	sst s2, [s0 + 612] ; smovi s1, 256
	sst s1, [s0 + 624] ; smovi s2, 512
	sst s2, [s0 + 616] ; smovi s1, 64
	sst s1, [s0 + 628] ; smovi s2, 1024
	sst s2, [s0 + 620] ; smovi s1, 2048
	sst s1, [s0 + 632] ; smovi s2, 0
	sst s2, [s0 + 636] ; smovi s1, 0
	sst s1, [s0 + 580] ; smovi s2, 1090
	sst s2, [s0 + 656] ; smovi s1, 16
	sst s1, [s0 + 660] ; smovi s2, 8
	sst s2, [s0 + 664] ; smovi s1, 2
	sst s1, [s0 + 668] ; smovi s2, 4
	sst s2, [s0 + 672] ; smovi s1, 64
	sst s1, [s0 + 676] ; smovi s2, 256
	sst s2, [s0 + 688] ; smovi s1, 512
	sst s1, [s0 + 680] ; smovi s2, 64
	sst s2, [s0 + 692] ; smovi s1, 1024
	sst s1, [s0 + 684] ; smovi s2, 2048
	sst s2, [s0 + 696] ; smovi s1, 0
	sst s1, [s0 + 700] ; smovi s2, 0
	sst s2, [s0 + 644]
	smovi s1, 0 ; smovi s2, 0
	sst s1, [s0 + 216] ; smovi s3, 0
	sst s2, [s0 + 220] ; smovi s1, -2147483648
	sst s3, [s0 + 224] ; smovi s2, -2147483648
	sst s1, [s0 + 228] ; smovi s3, 0
	sst s2, [s0 + 232] ; smovi s1, 0
	smuli s2, s1, 4 ; smuli s4, s3, 256
	sadd s1, s2, s4 ; sld s3, [s0]
	sld s2, [s0 + 4] ; smovi s4, 0
	sadd s5, s3, s1 ; smovi s6, 0
	sst s2, [s0 + 324] ; saddi s1, s5, 0
	sst s1, [s0 + 320] ; scmpi.eq p1, s6, 0
	sst s4, [s0 + 328] ; scmpi.eq p2, s6, 1
	smovi s1, 0 ; smovi s2, 0 ; (p1) dma.start f0, [s0 + 320]
	smovi s3, 0 ; smovi s4, -2147483648 ; (p2) dma.start f1, [s0 + 320]
	sst s1, [s0 + 236] ; smovi s5, -2147483648
	sst s2, [s0 + 240] ; smovi s1, 0
	sst s3, [s0 + 244] ; smovi s2, 0
	sst s4, [s0 + 248] ; smuli s3, s2, 4
	sst s5, [s0 + 252] ; smuli s2, s1, 256
	sadd s1, s3, s2 ; sld s4, [s0 + 8]
	sld s2, [s0 + 12] ; smovi s3, 8192
	sadd s5, s4, s1 ; smovi s6, 0
	sst s2, [s0 + 388] ; saddi s1, s5, 0
	sst s1, [s0 + 384] ; scmpi.eq p1, s6, 0
	sst s3, [s0 + 392] ; scmpi.eq p2, s6, 1
	smovi s1, 0 ; smovi s2, 0 ; (p1) dma.start f2, [s0 + 384]
	smovi s3, 0 ; smovi s4, -2147483648 ; (p2) dma.start f3, [s0 + 384]
	sst s1, [s0 + 256] ; smovi s5, -2147483648
	sst s2, [s0 + 260] ; smovi s1, 0
	sst s3, [s0 + 264] ; smov s2, s1
	sst s4, [s0 + 268]
	sst s5, [s0 + 272]
L527:
	smovi s1, 0
	smov s3, s1
L529:
	smovi s1, 0
	smov s4, s1
L531:
	saddi s1, s4, 1 ; saddi s5, s3, 1
	scmpi.eq p1, s1, 2 ; saddi s6, s2, 1
	smovi s7, 0 ; ssel s8, p1, s5, s3
	scmpi.eq p2, s8, 2 ; smovi s5, 0
	ssel s9, p1, s7, s1 ; pand p3, p1, p2
	smovi s1, 0 ; ssel s7, p3, s6, s2
	ssel s6, p2, s1, s8 ; scmpi.eq p1, s7, 2
	ssel s1, p1, s5, s7 ; pand p2, p3, p1
	sld s5, [s0 + 228] ; sld s7, [s0 + 232]
	scmp.ne p1, s2, s1 ; scmp.ne p3, s4, s9
	sld s8, [s0 + 248] ; sld s10, [s0 + 252]
	sld s11, [s0 + 268] ; sld s12, [s0 + 272]
	pnot p4, p2 ; scmpi.eq p5, s2, 0
	scmpi.eq p2, s3, 0 ; por p6, p1, p3
	scmp.ne p1, s4, s9 ; scmp.ne p3, s3, s6
	scmp.ne p7, s2, s1 ; scmp.ne p8, s3, s6
	pand p9, p5, p2 ; scmpi.eq p10, s4, 0
	sld s13, [s0 + 216] ; scmp.ne p2, s2, s5
	scmp.ne p5, s4, s7 ; pand p11, p4, p6
	sld s5, [s0 + 236] ; scmp.ne p6, s4, s8
	scmp.ne p12, s3, s10 ; por p13, p1, p3
	sld s7, [s0 + 256] ; scmp.ne p1, s2, s11
	scmp.ne p3, s3, s12 ; por p14, p7, p8
	pand p7, p9, p10 ; por p8, p2, p5
	por p2, p6, p12 ; pand p5, p4, p13
	por p6, p1, p3 ; pand p7, p4, p14
	(!p11) br L570
	smuli s8, s1, 32 ; smuli s10, s9, 32
	smuli s1, s10, 4 ; smuli s11, s8, 256
	smovi s8, 1 ; sld s10, [s0]
	sadd s12, s1, s11 ; sld s14, [s0 + 4]
	ssub s1, s8, s13 ; sadd s11, s10, s12
	smovi s8, 1 ; smuli s10, s1, 4096
	sst s14, [s0 + 452] ; saddi s1, s11, 0
	ssub s11, s8, s13 ; sst s1, [s0 + 448]
	saddi s1, s10, 0 ; scmpi.eq p1, s11, 0
	sst s1, [s0 + 456] ; scmpi.eq p3, s11, 1
	(p1) dma.start f0, [s0 + 448]
	(p3) dma.start f1, [s0 + 448]
L570:
	(!p5) br L583
	smuli s1, s9, 32 ; smuli s8, s6, 32
	smuli s6, s8, 4 ; smuli s9, s1, 256
	smovi s1, 1 ; sld s8, [s0 + 8]
	sadd s10, s6, s9 ; sld s11, [s0 + 12]
	ssub s6, s1, s5 ; sadd s9, s8, s10
	smovi s1, 1 ; smuli s8, s6, 4096
	sst s11, [s0 + 516] ; saddi s6, s9, 0
	ssub s9, s1, s5 ; sst s6, [s0 + 512]
	saddi s1, s8, 8192 ; scmpi.eq p1, s9, 0
	sst s1, [s0 + 520] ; scmpi.eq p3, s9, 1
	(p1) dma.start f2, [s0 + 512]
	(p3) dma.start f3, [s0 + 512]
L583:
	sld s1, [s0 + 264]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L600
	sld s1, [s0 + 268] ; sld s6, [s0 + 272]
	sld s8, [s0 + 256] ; smovi s9, 1
	smuli s10, s1, 32 ; smuli s11, s6, 32
	ssub s1, s9, s8 ; smuli s6, s11, 4
	smuli s8, s1, 4096 ; smuli s9, s10, 256
	sadd s10, s6, s9 ; sld s11, [s0 + 16]
	sld s6, [s0 + 20] ; saddi s9, s8, 16384
	sadd s8, s11, s10 ; sst s9, [s0 + 576]
	sst s6, [s0 + 588] ; saddi s9, s8, 0
	sst s9, [s0 + 584] ; scmpi.eq p1, s1, 0
	scmpi.eq p3, s1, 1 ; smovi s6, 0 ; (p1) dma.start f4, [s0 + 576]
	(p3) dma.start f5, [s0 + 576]
	sst s6, [s0 + 264]
L600:
	(!p8) br L604
	scmpi.eq p1, s13, 0 ; scmpi.eq p3, s13, 1
	(p1) sync.take f0, 1
	(p3) sync.take f1, 1
L604:
	(!p2) br L608
	scmpi.eq p1, s5, 0 ; scmpi.eq p2, s5, 1
	(p1) sync.take f2, 1
	(p2) sync.take f3, 1
L608:
	.loc "kernels/matmul/matmul.pk" 61 5 region=matmul_f32_small
	scmpi.eq p1, s4, 0
	.loc "kernels/matmul/matmul.pk" 61 5 region=matmul_f32_small
	(!p1) br L616
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smovi s1, 0
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smov s6, s1
L612:
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smuli s1, s6, 128 ; saddi s6, s6, 8 ; vbcasti v0, 0
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	scmpi.lt p1, s6, 32
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	vst v0, [s1 + 24576]
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	(p1) br L612 ; vst v0, [s1 + 25088]
L616:
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	smuli s1, s13, 4096 ; smuli s6, s5, 4096
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s6 + 8192]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v1, [s6 + 9216]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s1] ; mxu.push mxu0, v0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s1 + 1024] ; mxu.push mxu0, v1
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v1, [s1 + 2048] ; mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v3, [s1 + 3072] ; mxu.mm mxu0, v2, prec=highest
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s6 + 8704]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s6 + 9728]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v5, [s1] ; mxu.push mxu0, v2
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s0 + 24576] ; mxu.push mxu0, v4
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s6 + 10240]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
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
	vadd.f32 v6, v2, v0
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v6, [s0 + 24576]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v0, [s1 + 1024]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s0 + 25600]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
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
	vadd.f32 v6, v2, v1
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v6, [s0 + 25600]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v1, [s1 + 2048]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s0 + 26624]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v6, [s6 + 11264]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
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
	vadd.f32 v4, v2, v3
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v4, [s0 + 26624]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s1 + 3072]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v3, [s0 + 27648]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
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
	mxu.mm mxu0, v5, prec=highest
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	mxu.pop v4, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v5, v3, v4
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v5, [s0 + 27648]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v3, [s1 + 512]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 25088]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v5, [s6 + 10752]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
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
	vld v6, [s6 + 11776]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
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
	mxu.pop v2, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v5, v4, v2
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v5, [s0 + 27136]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s1 + 3584]
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
	mxu.mm mxu0, v3, prec=highest
	nop
	nop
	nop
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
	vst v5, [s0 + 28160]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v3, [s1 + 512]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s0 + 24576]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v5, [s6 + 8192]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
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
	vld v6, [s6 + 9216]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
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
	mxu.pop v2, mxu0
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vadd.f32 v5, v4, v2
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v5, [s0 + 26624]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s1 + 3584]
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
	mxu.mm mxu0, v3, prec=highest
	nop
	nop
	nop
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
	vst v5, [s0 + 27648]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v3, [s0 + 25088]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
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
	vadd.f32 v4, v3, v0
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
	vadd.f32 v3, v0, v1
	nop
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vst v3, [s0 + 26112]
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
	mxu.mm mxu0, v2, prec=highest
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
	scmpi.eq p1, s4, 1
	.loc "kernels/matmul/matmul.pk" 63 5 region=matmul_f32_small
	(!p1) br L1411
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smovi s1, 0
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smov s6, s1
L1406:
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smuli s1, s6, 128 ; smuli s8, s7, 4096
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smuli s9, s6, 128 ; saddi s6, s6, 8 ; vld v0, [s1 + 24576]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	sadd s10, s8, s9 ; scmpi.lt p1, s6, 32 ; vld v1, [s1 + 25088]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	vst v0, [s10 + 16384]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	(p1) br L1406 ; vst v1, [s10 + 16896]
L1411:
	.loc "" 0 0 region=matmul_f32_small
	pnot p1, p4
	por p2, p1, p7
	(!p2) br L1425
	smovi s1, 1 ; sld s6, [s0 + 260]
	ssub s8, s1, s7
	scmpi.ne p1, s6, 0
	(!p1) br L1421
	scmpi.eq p1, s8, 0 ; scmpi.eq p2, s8, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L1421:
	smovi s1, 1 ; smovi s6, 1
	sst s1, [s0 + 260]
	sst s8, [s0 + 256]
	sst s6, [s0 + 264]
L1425:
	sst s2, [s0 + 228]
	sst s4, [s0 + 232] ; (!p11) br L1430
	smovi s1, 1
	ssub s6, s1, s13
	sst s6, [s0 + 216]
L1430:
	sst s4, [s0 + 248]
	sst s3, [s0 + 252] ; (!p5) br L1435
	smovi s1, 1
	ssub s6, s1, s5
	sst s6, [s0 + 236]
L1435:
	sst s2, [s0 + 268] ; saddi s4, s4, 1
	sst s3, [s0 + 272] ; scmpi.lt p1, s4, 2
	(p1) br L531
	saddi s3, s3, 1
	scmpi.lt p1, s3, 2
	(p1) br L529
	saddi s2, s2, 1
	scmpi.lt p1, s2, 2
	(p1) br L527
	sld s1, [s0 + 264]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L1461
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
L1461:
	sld s1, [s0 + 256] ; sld s2, [s0 + 260]
	smovi s0, 1
	ssub s3, s0, s1 ; scmpi.ne p1, s2, 0
	(!p1) br L1468
	scmpi.eq p1, s3, 0 ; scmpi.eq p2, s3, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L1468:
	halt ; trace.end matmul_f32_small
