# matmul_small: VMEM 20480 of 262144 bytes; SMEM 704 + spill 12 at 704 (0 scalar, 3 predicate) of 4096 bytes
# matmul_f32_small: VMEM 28672 of 262144 bytes; SMEM 704 + spill 12 at 704 (0 scalar, 3 predicate) of 4096 bytes
# 1527 bundles, 1272 ops
.preset small
.region matmul_small
.region matmul_f32_small
.entry matmul_small pc=L0
.operand x in bf16[128,128] smem=0
.operand y in bf16[128,64] smem=8
.operand z out f32[128,64] smem=16
.entry matmul_f32_small pc=L444
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
	smuli s2, s3, 32 ; smuli s4, s1, 32
	smuli s1, s4, 2 ; smuli s3, s2, 256
	sadd s2, s1, s3 ; sld s4, [s0]
	sld s1, [s0 + 4] ; smovi s3, 0
	sadd s5, s4, s2 ; smovi s6, 0
	sst s1, [s0 + 324] ; saddi s2, s5, 0
	sst s2, [s0 + 320] ; scmpi.eq p1, s6, 0
	sst s3, [s0 + 328] ; scmpi.eq p2, s6, 1
	smovi s1, 0 ; smovi s2, 0 ; (p1) dma.start f0, [s0 + 320]
	smovi s3, 0 ; smovi s4, -2147483648 ; (p2) dma.start f1, [s0 + 320]
	sst s1, [s0 + 236] ; smovi s5, -2147483648
	sst s2, [s0 + 240] ; smovi s1, 0
	sst s3, [s0 + 244] ; smovi s2, 0
	sst s4, [s0 + 248] ; smuli s3, s1, 32
	sst s5, [s0 + 252] ; smuli s1, s2, 32
	smuli s2, s1, 2 ; smuli s4, s3, 128
	sadd s1, s2, s4 ; sld s3, [s0 + 8]
	sld s2, [s0 + 12] ; smovi s4, 4096
	sadd s5, s3, s1 ; smovi s6, 0
	sst s2, [s0 + 388] ; saddi s1, s5, 0
	sst s1, [s0 + 384] ; scmpi.eq p1, s6, 0
	sst s4, [s0 + 392] ; scmpi.eq p2, s6, 1
	smovi s1, 0 ; smovi s2, 0 ; (p1) dma.start f2, [s0 + 384]
	smovi s3, 0 ; smovi s4, -2147483648 ; (p2) dma.start f3, [s0 + 384]
	sst s1, [s0 + 256] ; smovi s5, -2147483648
	sst s2, [s0 + 260] ; smovi s1, 0
	sst s3, [s0 + 264] ; smov s2, s1
	sst s4, [s0 + 268]
	sst s5, [s0 + 272]
L114:
	smovi s1, 0
	smov s3, s1
L116:
	smovi s1, 0
	smov s4, s1
L118:
	saddi s1, s4, 1 ; saddi s5, s3, 1
	ssel s6, p0, s1, s4 ; saddi s7, s2, 1
	scmpi.eq p1, s6, 4 ; smovi s1, 0
	pand p2, p0, p1 ; smovi s8, 0
	ssel s9, p2, s5, s3 ; smovi s10, 0
	scmpi.eq p3, s9, 2 ; smovi s5, 0
	pand p4, p2, p3 ; pnot p5, p0
	ssel s11, p3, s10, s9 ; ssel s12, p4, s7, s2
	scmpi.eq p2, s12, 4 ; smovi s7, 0
	ssel s9, p2, s1, s12 ; pand p3, p4, p2
	pnot p4, p3 ; scmp.ne p2, s2, s9
	(p4) smovi s8, 1 ; smovi s1, 0
	sst s8, [s5 + 704] ; por p3, p5, p2
	sld s5, [s0 + 228] ; smovi s8, 0
	sld s10, [s0 + 232] ; sld s12, [s0 + 216]
	sld s7, [s7 + 704] ; sld s13, [s0 + 248]
	sld s14, [s0 + 252] ; sld s15, [s0 + 236]
	sld s1, [s1 + 704] ; sld s16, [s0 + 268]
	sld s17, [s0 + 272] ; sld s18, [s0 + 256]
	(p3) smovi s8, 1 ; smovi s19, 0
	scmp.ne p2, s3, s11 ; smovi s20, 0
	sst s8, [s19 + 712] ; (p2) smovi s20, 1
	smovi s8, 0 ; smovi s19, 0
	sst s20, [s19 + 708] ; smovi s21, 0
	ssel s19, p1, s8, s6 ; smovi s20, 0
	scmp.ne p1, s2, s9 ; pnot p2, p0
	sld s21, [s21 + 708] ; sld s20, [s20 + 712]
	scmpi.eq p3, s2, 0 ; smovi s6, 0
	por p4, p2, p1 ; scmp.ne p5, s4, s19
	scmp.ne p1, s4, s19 ; pnot p2, p0
	pand p6, p0, p3 ; sld s6, [s6 + 704]
	scmpi.eq p3, s3, 0 ; scmp.ne p7, s2, s5
	pnot p8, p0 ; por p9, p4, p5
	scmpi.ne p5, s7, 0 ; scmp.ne p4, s4, s13
	pnot p10, p0 ; por p11, p2, p1
	scmp.ne p1, s3, s11 ; scmp.ne p2, s2, s16
	pnot p12, p0 ; scmpi.ne p13, s21, 0
	pand p14, p6, p3 ; scmpi.ne p15, s20, 0
	scmpi.eq p3, s4, 0 ; por p6, p8, p7
	scmp.ne p7, s4, s10 ; pand p8, p5, p9
	por p5, p10, p4 ; scmp.ne p9, s3, s14
	por p4, p11, p1 ; scmpi.ne p10, s1, 0
	por p1, p12, p2 ; scmp.ne p11, s3, s17
	por p2, p15, p13 ; scmpi.ne p12, s6, 0
	pand p13, p14, p3 ; por p15, p6, p7
	por p3, p5, p9 ; pand p6, p10, p4
	por p4, p1, p11 ; pand p5, p12, p2
	(!p8) br L178
	smuli s1, s9, 32 ; smuli s5, s19, 32
	smuli s6, s5, 2 ; smuli s7, s1, 256
	smovi s1, 1 ; sld s5, [s0]
	sadd s8, s6, s7 ; sld s9, [s0 + 4]
	ssub s6, s1, s12 ; sadd s7, s5, s8
	smovi s1, 1 ; smuli s5, s6, 2048
	sst s9, [s0 + 452] ; saddi s8, s7, 0
	ssub s7, s1, s12 ; sst s8, [s0 + 448]
	saddi s1, s5, 0 ; scmpi.eq p1, s7, 0
	sst s1, [s0 + 456] ; scmpi.eq p2, s7, 1
	smuli s1, s6, 2048 ; (p1) dma.start f0, [s0 + 448]
	(p2) dma.start f1, [s0 + 448]
L178:
	(!p6) br L191
	smuli s1, s19, 32 ; smuli s5, s11, 32
	smuli s6, s5, 2 ; smuli s7, s1, 128
	smovi s1, 1 ; sld s5, [s0 + 8]
	sadd s8, s6, s7 ; sld s9, [s0 + 12]
	ssub s6, s1, s15 ; sadd s7, s5, s8
	smovi s1, 1 ; smuli s5, s6, 2048
	sst s9, [s0 + 516] ; saddi s8, s7, 0
	ssub s7, s1, s15 ; sst s8, [s0 + 512]
	saddi s1, s5, 4096 ; scmpi.eq p1, s7, 0
	sst s1, [s0 + 520] ; scmpi.eq p2, s7, 1
	smuli s1, s6, 2048 ; (p1) dma.start f2, [s0 + 512]
	(p2) dma.start f3, [s0 + 512]
L191:
	sld s1, [s0 + 264]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L208
	sld s1, [s0 + 268] ; sld s5, [s0 + 272]
	sld s6, [s0 + 256] ; smovi s7, 1
	smuli s8, s1, 32 ; smuli s9, s5, 32
	ssub s1, s7, s6 ; smuli s5, s9, 4
	smuli s6, s1, 4096 ; smuli s7, s8, 256
	sadd s8, s5, s7 ; sld s9, [s0 + 16]
	sld s5, [s0 + 20] ; saddi s7, s6, 8192
	sadd s6, s9, s8 ; sst s7, [s0 + 576]
	sst s5, [s0 + 588] ; saddi s7, s6, 0
	sst s7, [s0 + 584] ; scmpi.eq p1, s1, 0
	scmpi.eq p2, s1, 1 ; smovi s5, 0 ; (p1) dma.start f4, [s0 + 576]
	(p2) dma.start f5, [s0 + 576]
	sst s5, [s0 + 264]
L208:
	(!p15) br L212
	scmpi.eq p1, s12, 0 ; scmpi.eq p2, s12, 1
	(p1) sync.take f0, 1
	(p2) sync.take f1, 1
L212:
	(!p3) br L216
	scmpi.eq p1, s15, 0 ; scmpi.eq p2, s15, 1
	(p1) sync.take f2, 1
	(p2) sync.take f3, 1
L216:
	.loc "kernels/matmul/matmul.pk" 28 5 region=matmul_small
	scmpi.eq p1, s4, 0
	.loc "kernels/matmul/matmul.pk" 28 5 region=matmul_small
	(!p1) br L224
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smovi s1, 0
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smov s5, s1
L220:
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	smuli s1, s5, 128 ; saddi s5, s5, 8 ; vbcasti v0, 0
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	scmpi.lt p1, s5, 32
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	vst v0, [s1 + 16384]
	.loc "kernels/matmul/matmul.pk" 28 21 region=matmul_small
	(p1) br L220 ; vst v0, [s1 + 16896]
L224:
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	smuli s1, s12, 2048 ; smuli s5, s12, 2048
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	smuli s1, s15, 2048 ; smuli s6, s15, 2048
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s6 + 4096]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s5]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s5 + 1024] ; mxu.push.bf16 mxu0, v0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s6 + 4608] ; mxu.latch mxu0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s5] ; mxu.mm.bf16 mxu0, v1
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v1, [s0 + 16384] ; mxu.push.bf16 mxu0, v0
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v0, [s0 + 17408]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v4, [s6 + 5120]
	nop
	nop
	nop
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
	vld v0, [s5 + 1024]
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
	vld v1, [s5 + 512]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 16896]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s0 + 17920]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v4, [s6 + 5632] ; mxu.mm.bf16 mxu0, v0
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
	vld v0, [s5 + 1536]
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
	vld v1, [s5 + 512]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v2, [s0 + 16384]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v3, [s0 + 17408]
	.loc "kernels/matmul/matmul.pk" 29 17 region=matmul_small
	vld v4, [s6 + 4096] ; mxu.mm.bf16 mxu0, v0
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
	vld v0, [s5 + 1536]
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
	smovi s1, 1 ; smovi s5, 4
	.loc "kernels/matmul/matmul.pk" 30 5 region=matmul_small
	ssub s6, s5, s1
	.loc "kernels/matmul/matmul.pk" 30 5 region=matmul_small
	scmp.eq p1, s4, s6
	.loc "kernels/matmul/matmul.pk" 30 5 region=matmul_small
	(!p1) br L382
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smovi s1, 0
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smov s5, s1
L377:
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smuli s1, s5, 128 ; smuli s6, s18, 4096
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	smuli s7, s5, 128 ; saddi s5, s5, 8 ; vld v0, [s1 + 16384]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	sadd s8, s6, s7 ; scmpi.lt p1, s5, 32 ; vld v1, [s1 + 16896]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	vst v0, [s8 + 8192]
	.loc "kernels/matmul/matmul.pk" 30 39 region=matmul_small
	(p1) br L377 ; vst v1, [s8 + 8704]
L382:
	.loc "" 0 0 region=matmul_small
	smovi s1, 0
	sld s1, [s1 + 704]
	nop
	scmpi.ne p1, s1, 0
	pnot p2, p1
	por p1, p2, p5
	(!p1) br L400
	smovi s1, 1 ; sld s5, [s0 + 260]
	ssub s6, s1, s18
	scmpi.ne p1, s5, 0
	(!p1) br L396
	scmpi.eq p1, s6, 0 ; scmpi.eq p2, s6, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L396:
	smovi s1, 1 ; smovi s5, 1
	sst s1, [s0 + 260]
	sst s6, [s0 + 256]
	sst s5, [s0 + 264]
L400:
	sst s2, [s0 + 228]
	sst s4, [s0 + 232] ; (!p8) br L405
	smovi s1, 1
	ssub s5, s1, s12
	sst s5, [s0 + 216]
L405:
	sst s4, [s0 + 248]
	sst s3, [s0 + 252] ; (!p6) br L410
	smovi s1, 1
	ssub s5, s1, s15
	sst s5, [s0 + 236]
L410:
	sst s2, [s0 + 268] ; saddi s4, s4, 1
	sst s3, [s0 + 272] ; scmpi.lt p1, s4, 4
	(p1) br L118
	saddi s3, s3, 1
	scmpi.lt p1, s3, 2
	(p1) br L116
	saddi s2, s2, 1
	scmpi.lt p1, s2, 4
	(p1) br L114
	sld s1, [s0 + 264]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L436
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
L436:
	sld s1, [s0 + 256] ; sld s2, [s0 + 260]
	smovi s0, 1
	ssub s3, s0, s1 ; scmpi.ne p1, s2, 0
	(!p1) br L443
	scmpi.eq p1, s3, 0 ; scmpi.eq p2, s3, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L443:
	halt ; trace.end matmul_small
L444:
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
	smuli s2, s3, 32 ; smuli s4, s1, 32
	smuli s1, s4, 4 ; smuli s3, s2, 256
	sadd s2, s1, s3 ; sld s4, [s0]
	sld s1, [s0 + 4] ; smovi s3, 0
	sadd s5, s4, s2 ; smovi s6, 0
	sst s1, [s0 + 324] ; saddi s2, s5, 0
	sst s2, [s0 + 320] ; scmpi.eq p1, s6, 0
	sst s3, [s0 + 328] ; scmpi.eq p2, s6, 1
	smovi s1, 0 ; smovi s2, 0 ; (p1) dma.start f0, [s0 + 320]
	smovi s3, 0 ; smovi s4, -2147483648 ; (p2) dma.start f1, [s0 + 320]
	sst s1, [s0 + 236] ; smovi s5, -2147483648
	sst s2, [s0 + 240] ; smovi s1, 0
	sst s3, [s0 + 244] ; smovi s2, 0
	sst s4, [s0 + 248] ; smuli s3, s1, 32
	sst s5, [s0 + 252] ; smuli s1, s2, 32
	smuli s2, s1, 4 ; smuli s4, s3, 256
	sadd s1, s2, s4 ; sld s3, [s0 + 8]
	sld s2, [s0 + 12] ; smovi s4, 8192
	sadd s5, s3, s1 ; smovi s6, 0
	sst s2, [s0 + 388] ; saddi s1, s5, 0
	sst s1, [s0 + 384] ; scmpi.eq p1, s6, 0
	sst s4, [s0 + 392] ; scmpi.eq p2, s6, 1
	smovi s1, 0 ; smovi s2, 0 ; (p1) dma.start f2, [s0 + 384]
	smovi s3, 0 ; smovi s4, -2147483648 ; (p2) dma.start f3, [s0 + 384]
	sst s1, [s0 + 256] ; smovi s5, -2147483648
	sst s2, [s0 + 260] ; smovi s1, 0
	sst s3, [s0 + 264] ; smov s2, s1
	sst s4, [s0 + 268]
	sst s5, [s0 + 272]
L558:
	smovi s1, 0
	smov s3, s1
L560:
	smovi s1, 0
	smov s4, s1
L562:
	saddi s1, s4, 1 ; saddi s5, s3, 1
	ssel s6, p0, s1, s4 ; saddi s7, s2, 1
	scmpi.eq p1, s6, 2 ; smovi s1, 0
	pand p2, p0, p1 ; smovi s8, 0
	ssel s9, p2, s5, s3 ; smovi s10, 0
	scmpi.eq p3, s9, 2 ; smovi s5, 0
	pand p4, p2, p3 ; pnot p5, p0
	ssel s11, p3, s10, s9 ; ssel s12, p4, s7, s2
	scmpi.eq p2, s12, 2 ; smovi s7, 0
	ssel s9, p2, s1, s12 ; pand p3, p4, p2
	pnot p4, p3 ; scmp.ne p2, s2, s9
	(p4) smovi s8, 1 ; smovi s1, 0
	sst s8, [s5 + 704] ; por p3, p5, p2
	sld s5, [s0 + 228] ; smovi s8, 0
	sld s10, [s0 + 232] ; sld s12, [s0 + 216]
	sld s7, [s7 + 704] ; sld s13, [s0 + 248]
	sld s14, [s0 + 252] ; sld s15, [s0 + 236]
	sld s1, [s1 + 704] ; sld s16, [s0 + 268]
	sld s17, [s0 + 272] ; sld s18, [s0 + 256]
	(p3) smovi s8, 1 ; smovi s19, 0
	scmp.ne p2, s3, s11 ; smovi s20, 0
	sst s8, [s19 + 712] ; (p2) smovi s20, 1
	smovi s8, 0 ; smovi s19, 0
	sst s20, [s19 + 708] ; smovi s21, 0
	ssel s19, p1, s8, s6 ; smovi s20, 0
	scmp.ne p1, s2, s9 ; pnot p2, p0
	sld s21, [s21 + 708] ; sld s20, [s20 + 712]
	scmpi.eq p3, s2, 0 ; smovi s6, 0
	por p4, p2, p1 ; scmp.ne p5, s4, s19
	scmp.ne p1, s4, s19 ; pnot p2, p0
	pand p6, p0, p3 ; sld s6, [s6 + 704]
	scmpi.eq p3, s3, 0 ; scmp.ne p7, s2, s5
	pnot p8, p0 ; por p9, p4, p5
	scmpi.ne p5, s7, 0 ; scmp.ne p4, s4, s13
	pnot p10, p0 ; por p11, p2, p1
	scmp.ne p1, s3, s11 ; scmp.ne p2, s2, s16
	pnot p12, p0 ; scmpi.ne p13, s21, 0
	pand p14, p6, p3 ; scmpi.ne p15, s20, 0
	scmpi.eq p3, s4, 0 ; por p6, p8, p7
	scmp.ne p7, s4, s10 ; pand p8, p5, p9
	por p5, p10, p4 ; scmp.ne p9, s3, s14
	por p4, p11, p1 ; scmpi.ne p10, s1, 0
	por p1, p12, p2 ; scmp.ne p11, s3, s17
	por p2, p15, p13 ; scmpi.ne p12, s6, 0
	pand p13, p14, p3 ; por p15, p6, p7
	por p3, p5, p9 ; pand p6, p10, p4
	por p4, p1, p11 ; pand p5, p12, p2
	(!p8) br L622
	smuli s1, s9, 32 ; smuli s5, s19, 32
	smuli s6, s5, 4 ; smuli s7, s1, 256
	smovi s1, 1 ; sld s5, [s0]
	sadd s8, s6, s7 ; sld s9, [s0 + 4]
	ssub s6, s1, s12 ; sadd s7, s5, s8
	smovi s1, 1 ; smuli s5, s6, 4096
	sst s9, [s0 + 452] ; saddi s6, s7, 0
	ssub s7, s1, s12 ; sst s6, [s0 + 448]
	saddi s1, s5, 0 ; scmpi.eq p1, s7, 0
	sst s1, [s0 + 456] ; scmpi.eq p2, s7, 1
	(p1) dma.start f0, [s0 + 448]
	(p2) dma.start f1, [s0 + 448]
L622:
	(!p6) br L635
	smuli s1, s19, 32 ; smuli s5, s11, 32
	smuli s6, s5, 4 ; smuli s7, s1, 256
	smovi s1, 1 ; sld s5, [s0 + 8]
	sadd s8, s6, s7 ; sld s9, [s0 + 12]
	ssub s6, s1, s15 ; sadd s7, s5, s8
	smovi s1, 1 ; smuli s5, s6, 4096
	sst s9, [s0 + 516] ; saddi s6, s7, 0
	ssub s7, s1, s15 ; sst s6, [s0 + 512]
	saddi s1, s5, 8192 ; scmpi.eq p1, s7, 0
	sst s1, [s0 + 520] ; scmpi.eq p2, s7, 1
	(p1) dma.start f2, [s0 + 512]
	(p2) dma.start f3, [s0 + 512]
L635:
	sld s1, [s0 + 264]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L652
	sld s1, [s0 + 268] ; sld s5, [s0 + 272]
	sld s6, [s0 + 256] ; smovi s7, 1
	smuli s8, s1, 32 ; smuli s9, s5, 32
	ssub s1, s7, s6 ; smuli s5, s9, 4
	smuli s6, s1, 4096 ; smuli s7, s8, 256
	sadd s8, s5, s7 ; sld s9, [s0 + 16]
	sld s5, [s0 + 20] ; saddi s7, s6, 16384
	sadd s6, s9, s8 ; sst s7, [s0 + 576]
	sst s5, [s0 + 588] ; saddi s7, s6, 0
	sst s7, [s0 + 584] ; scmpi.eq p1, s1, 0
	scmpi.eq p2, s1, 1 ; smovi s5, 0 ; (p1) dma.start f4, [s0 + 576]
	(p2) dma.start f5, [s0 + 576]
	sst s5, [s0 + 264]
L652:
	(!p15) br L656
	scmpi.eq p1, s12, 0 ; scmpi.eq p2, s12, 1
	(p1) sync.take f0, 1
	(p2) sync.take f1, 1
L656:
	(!p3) br L660
	scmpi.eq p1, s15, 0 ; scmpi.eq p2, s15, 1
	(p1) sync.take f2, 1
	(p2) sync.take f3, 1
L660:
	.loc "kernels/matmul/matmul.pk" 61 5 region=matmul_f32_small
	scmpi.eq p1, s4, 0
	.loc "kernels/matmul/matmul.pk" 61 5 region=matmul_f32_small
	(!p1) br L668
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smovi s1, 0
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smov s5, s1
L664:
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	smuli s1, s5, 128 ; saddi s5, s5, 8 ; vbcasti v0, 0
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	scmpi.lt p1, s5, 32
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	vst v0, [s1 + 24576]
	.loc "kernels/matmul/matmul.pk" 61 21 region=matmul_f32_small
	(p1) br L664 ; vst v0, [s1 + 25088]
L668:
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	smuli s1, s12, 4096 ; smuli s5, s15, 4096
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
	vld v2, [s5 + 8704]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s5 + 9728]
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v5, [s1] ; mxu.push mxu0, v2
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v2, [s0 + 24576] ; mxu.push mxu0, v4
	.loc "kernels/matmul/matmul.pk" 62 17 region=matmul_f32_small
	vld v4, [s5 + 10240]
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
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
	smovi s1, 1 ; smovi s5, 2
	.loc "kernels/matmul/matmul.pk" 63 5 region=matmul_f32_small
	ssub s6, s5, s1
	.loc "kernels/matmul/matmul.pk" 63 5 region=matmul_f32_small
	scmp.eq p1, s4, s6
	.loc "kernels/matmul/matmul.pk" 63 5 region=matmul_f32_small
	(!p1) br L1465
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smovi s1, 0
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smov s5, s1
L1460:
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smuli s1, s5, 128 ; smuli s6, s18, 4096
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	smuli s7, s5, 128 ; saddi s5, s5, 8 ; vld v0, [s1 + 24576]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	sadd s8, s6, s7 ; scmpi.lt p1, s5, 32 ; vld v1, [s1 + 25088]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	vst v0, [s8 + 16384]
	.loc "kernels/matmul/matmul.pk" 63 39 region=matmul_f32_small
	(p1) br L1460 ; vst v1, [s8 + 16896]
L1465:
	.loc "" 0 0 region=matmul_f32_small
	smovi s1, 0
	sld s1, [s1 + 704]
	nop
	scmpi.ne p1, s1, 0
	pnot p2, p1
	por p1, p2, p5
	(!p1) br L1483
	smovi s1, 1 ; sld s5, [s0 + 260]
	ssub s6, s1, s18
	scmpi.ne p1, s5, 0
	(!p1) br L1479
	scmpi.eq p1, s6, 0 ; scmpi.eq p2, s6, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L1479:
	smovi s1, 1 ; smovi s5, 1
	sst s1, [s0 + 260]
	sst s6, [s0 + 256]
	sst s5, [s0 + 264]
L1483:
	sst s2, [s0 + 228]
	sst s4, [s0 + 232] ; (!p8) br L1488
	smovi s1, 1
	ssub s5, s1, s12
	sst s5, [s0 + 216]
L1488:
	sst s4, [s0 + 248]
	sst s3, [s0 + 252] ; (!p6) br L1493
	smovi s1, 1
	ssub s5, s1, s15
	sst s5, [s0 + 236]
L1493:
	sst s2, [s0 + 268] ; saddi s4, s4, 1
	sst s3, [s0 + 272] ; scmpi.lt p1, s4, 2
	(p1) br L562
	saddi s3, s3, 1
	scmpi.lt p1, s3, 2
	(p1) br L560
	saddi s2, s2, 1
	scmpi.lt p1, s2, 2
	(p1) br L558
	sld s1, [s0 + 264]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L1519
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
L1519:
	sld s1, [s0 + 256] ; sld s2, [s0 + 260]
	smovi s0, 1
	ssub s3, s0, s1 ; scmpi.ne p1, s2, 0
	(!p1) br L1526
	scmpi.eq p1, s3, 0 ; scmpi.eq p2, s3, 1
	(p1) sync.take f4, 1
	(p2) sync.take f5, 1
L1526:
	halt ; trace.end matmul_f32_small
