# axpb64: VMEM 16384 of 262144 bytes; SMEM 448 of 4096 bytes
# 177 bundles, 315 ops
.preset small
.region axpb64
.entry axpb64 pc=L0
.operand x in f32[64,128] smem=0
.operand y out f32[64,128] smem=8

L0:
	.loc "" 0 0 region=axpb64
	smovi s0, 0 ; smovi s1, 1073 ; trace.begin axpb64
	sst s1, [s0 + 208] ; smovi s2, 16
	sst s2, [s0 + 212] ; smovi s1, 8
	sst s1, [s0 + 216] ; smovi s2, 8
	sst s2, [s0 + 220] ; smovi s1, 1
	sst s1, [s0 + 224] ; smovi s2, 512
	sst s2, [s0 + 228] ; smovi s1, 64
	sst s1, [s0 + 240] ; smovi s2, 64
	sst s2, [s0 + 232] ; smovi s1, 512
	sst s1, [s0 + 244] ; smovi s2, 0
	sst s2, [s0 + 236] ; smovi s1, 0
	sst s1, [s0 + 248] ; smovi s2, 0
	sst s2, [s0 + 252] ; smovi s1, 0
	sst s1, [s0 + 204] ; smovi s2, 1073
	sst s2, [s0 + 272] ; smovi s1, 16
	sst s1, [s0 + 276] ; smovi s2, 8
	sst s2, [s0 + 280] ; smovi s1, 8
	sst s1, [s0 + 284] ; smovi s2, 1
	sst s2, [s0 + 288] ; smovi s1, 512
	sst s1, [s0 + 292] ; smovi s2, 64
	sst s2, [s0 + 304] ; smovi s1, 64
	sst s1, [s0 + 296] ; smovi s2, 512
	sst s2, [s0 + 308] ; smovi s1, 0
	sst s1, [s0 + 300] ; smovi s2, 0
	sst s2, [s0 + 312] ; smovi s1, 0
	sst s1, [s0 + 316] ; smovi s2, 0
	sst s2, [s0 + 268] ; smovi s1, 1074
	sst s1, [s0 + 336] ; smovi s2, 16
	sst s2, [s0 + 340] ; smovi s1, 8
	sst s1, [s0 + 344] ; smovi s2, 8
	sst s2, [s0 + 348] ; smovi s1, 1
	sst s1, [s0 + 352] ; smovi s2, 64
	sst s2, [s0 + 356] ; smovi s1, 512
	sst s1, [s0 + 368] ; smovi s2, 512
	sst s2, [s0 + 360] ; smovi s1, 64
	sst s1, [s0 + 372] ; smovi s2, 0
	sst s2, [s0 + 364] ; smovi s1, 0
	sst s1, [s0 + 376] ; smovi s2, 0
	sst s2, [s0 + 380] ; smovi s1, 0
	sst s1, [s0 + 324] ; smovi s2, 1074
	sst s2, [s0 + 400] ; smovi s1, 16
	sst s1, [s0 + 404] ; smovi s2, 8
	sst s2, [s0 + 408] ; smovi s1, 8
	sst s1, [s0 + 412] ; smovi s2, 1
	sst s2, [s0 + 416] ; smovi s1, 64
	sst s1, [s0 + 420] ; smovi s2, 512
	sst s2, [s0 + 432] ; smovi s1, 512
	sst s1, [s0 + 424] ; smovi s2, 64
	sst s2, [s0 + 436] ; smovi s1, 0
	sst s1, [s0 + 428] ; smovi s2, 0
	sst s2, [s0 + 440] ; smovi s1, 0
	sst s1, [s0 + 444] ; smovi s2, 0
	sst s2, [s0 + 388]
	smovi s1, 0 ; smovi s2, 0
	sst s1, [s0 + 144] ; smovi s3, 0
	sst s2, [s0 + 148] ; smovi s1, -2147483648
	sst s3, [s0 + 152] ; smovi s2, -2147483648
	sst s1, [s0 + 156] ; smovi s3, 0
	sst s2, [s0 + 160] ; smovi s1, 0
	smuli s2, s1, 4 ; smuli s4, s3, 512
	sadd s1, s2, s4 ; sld s3, [s0]
	sld s2, [s0 + 4] ; smovi s4, 0
	sadd s5, s3, s1 ; smovi s6, 0
	sst s2, [s0 + 196] ; saddi s1, s5, 0
	sst s1, [s0 + 192] ; scmpi.eq p1, s6, 0
	sst s4, [s0 + 200] ; scmpi.eq p2, s6, 1
	smovi s1, 0 ; smovi s2, 0 ; (p1) dma.start f0, [s0 + 192]
	smovi s3, 0 ; smovi s4, -2147483648 ; (p2) dma.start f1, [s0 + 192]
	sst s1, [s0 + 164] ; smovi s5, -2147483648
	sst s2, [s0 + 168] ; smovi s1, 0
	sst s3, [s0 + 172] ; smov s2, s1
	sst s4, [s0 + 176]
	sst s5, [s0 + 180]
L73:
	saddi s1, s2, 1 ; smovi s3, 0
	scmpi.eq p1, s1, 8 ; sld s4, [s0 + 156]
	ssel s5, p1, s3, s1 ; sld s6, [s0 + 160]
	sld s1, [s0 + 176] ; sld s3, [s0 + 180]
	pnot p2, p1 ; scmp.ne p3, s2, s5
	sld s7, [s0 + 144] ; scmp.ne p1, s2, s4
	scmpi.ne p4, s6, 0 ; pand p5, p2, p3
	sld s4, [s0 + 164] ; scmp.ne p3, s2, s1
	scmpi.ne p6, s3, 0 ; scmp.ne p7, s2, s5
	scmpi.eq p8, s2, 0 ; por p9, p1, p4
	por p1, p3, p6 ; pand p4, p2, p7
	(!p5) br L97
	smuli s1, s5, 8 ; smovi s3, 0
	smuli s5, s3, 4 ; smuli s6, s1, 512
	smovi s1, 1 ; sld s3, [s0]
	sadd s8, s5, s6 ; sld s9, [s0 + 4]
	ssub s5, s1, s7 ; sadd s6, s3, s8
	smovi s1, 1 ; smuli s3, s5, 4096
	sst s9, [s0 + 260] ; saddi s5, s6, 0
	ssub s6, s1, s7 ; sst s5, [s0 + 256]
	saddi s1, s3, 0 ; scmpi.eq p1, s6, 0
	sst s1, [s0 + 264] ; scmpi.eq p3, s6, 1
	(p1) dma.start f0, [s0 + 256]
	(p3) dma.start f1, [s0 + 256]
L97:
	sld s1, [s0 + 172]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L114
	sld s1, [s0 + 176] ; sld s3, [s0 + 180]
	sld s5, [s0 + 164] ; smovi s6, 1
	smuli s8, s1, 8 ; smuli s9, s3, 128
	ssub s1, s6, s5 ; smuli s3, s9, 4
	smuli s5, s1, 4096 ; smuli s6, s8, 512
	sadd s8, s3, s6 ; sld s9, [s0 + 8]
	sld s3, [s0 + 12] ; saddi s6, s5, 8192
	sadd s5, s9, s8 ; sst s6, [s0 + 320]
	sst s3, [s0 + 332] ; saddi s6, s5, 0
	sst s6, [s0 + 328] ; scmpi.eq p1, s1, 0
	scmpi.eq p3, s1, 1 ; smovi s3, 0 ; (p1) dma.start f2, [s0 + 320]
	(p3) dma.start f3, [s0 + 320]
	sst s3, [s0 + 172]
L114:
	(!p9) br L118
	scmpi.eq p1, s7, 0 ; scmpi.eq p3, s7, 1
	(p1) sync.take f0, 1
	(p3) sync.take f1, 1
L118:
	.loc "examples/axpb.pk" 15 5 region=axpb64
	smovi s1, 0
	.loc "examples/axpb.pk" 15 5 region=axpb64
	smov s3, s1
L120:
	.loc "examples/axpb.pk" 15 5 region=axpb64
	smuli s1, s7, 4096 ; smuli s5, s3, 32 ; vbcasti v0, 2.0f ; vbcasti v1, 1.0f
	.loc "examples/axpb.pk" 15 5 region=axpb64
	sadd s6, s1, s5 ; smuli s8, s4, 4096
	.loc "examples/axpb.pk" 15 5 region=axpb64
	smuli s1, s3, 32 ; saddi s3, s3, 32 ; vld v2, [s6]
	.loc "examples/axpb.pk" 15 5 region=axpb64
	sadd s5, s8, s1 ; scmpi.lt p1, s3, 128 ; vld v3, [s6 + 512]
	.loc "examples/axpb.pk" 15 5 region=axpb64
	vmul.f32 v4, v2, v0
	.loc "examples/axpb.pk" 15 5 region=axpb64
	vmul.f32 v2, v3, v0
	.loc "examples/axpb.pk" 15 5 region=axpb64
	vadd.f32 v0, v4, v1
	.loc "examples/axpb.pk" 15 5 region=axpb64
	vadd.f32 v3, v2, v1
	.loc "examples/axpb.pk" 15 5 region=axpb64
	vst v0, [s5 + 8192]
	.loc "examples/axpb.pk" 15 5 region=axpb64
	(p1) br L120 ; vst v3, [s5 + 8704]
	.loc "" 0 0 region=axpb64
	pnot p1, p2
	por p2, p1, p4
	(!p2) br L144
	smovi s1, 1 ; sld s3, [s0 + 168]
	ssub s5, s1, s4
	scmpi.ne p1, s3, 0
	(!p1) br L140
	scmpi.eq p1, s5, 0 ; scmpi.eq p2, s5, 1
	(p1) sync.take f2, 1
	(p2) sync.take f3, 1
L140:
	smovi s1, 1 ; smovi s3, 1
	sst s1, [s0 + 168]
	sst s5, [s0 + 164]
	sst s3, [s0 + 172]
L144:
	sst s2, [s0 + 156] ; smovi s1, 0
	sst s1, [s0 + 160] ; (!p5) br L149
	smovi s1, 1
	ssub s3, s1, s7
	sst s3, [s0 + 144]
L149:
	sst s2, [s0 + 176] ; saddi s2, s2, 1
	smovi s1, 0 ; scmpi.lt p1, s2, 8
	sst s1, [s0 + 180] ; (p1) br L73
	sld s1, [s0 + 172]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L169
	sld s1, [s0 + 176] ; sld s2, [s0 + 180]
	sld s3, [s0 + 164] ; smovi s4, 1
	smuli s5, s1, 8 ; smuli s6, s2, 128
	ssub s1, s4, s3 ; smuli s2, s6, 4
	smuli s3, s1, 4096 ; smuli s4, s5, 512
	sadd s5, s2, s4 ; sld s6, [s0 + 8]
	sld s2, [s0 + 12] ; saddi s4, s3, 8192
	sadd s3, s6, s5 ; sst s4, [s0 + 384]
	sst s2, [s0 + 396] ; saddi s4, s3, 0
	sst s4, [s0 + 392] ; scmpi.eq p1, s1, 0
	scmpi.eq p2, s1, 1 ; smovi s2, 0 ; (p1) dma.start f2, [s0 + 384]
	(p2) dma.start f3, [s0 + 384]
	sst s2, [s0 + 172]
L169:
	sld s1, [s0 + 164] ; sld s2, [s0 + 168]
	smovi s0, 1
	ssub s3, s0, s1 ; scmpi.ne p1, s2, 0
	(!p1) br L176
	scmpi.eq p1, s3, 0 ; scmpi.eq p2, s3, 1
	(p1) sync.take f2, 1
	(p2) sync.take f3, 1
L176:
	halt ; trace.end axpb64
