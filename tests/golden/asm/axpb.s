# axpb64: VMEM 16384 of 16777216 bytes; SMEM 448 of 1048576 bytes
# 164 bundles, 229 ops
.preset v4
.region axpb64
.entry axpb64 pc=L0 vmem=16384 smem=448
.operand x in f32[64,128] smem=0
.operand y out f32[64,128] smem=8

L0:
	.loc "" 0 0 region=axpb64
	smovi s0, 0 ; smovi s1, 1041 ; trace.begin axpb64
	sst s1, [s0 + 208] ; smovi s2, 1024
	sst s2, [s0 + 212] ; smovi s3, 1
	sst s3, [s0 + 216] ; smovi s4, 1042
	sst s3, [s0 + 220]
	sst s3, [s0 + 224]
	sst s0, [s0 + 228]
	sst s0, [s0 + 240]
	sst s0, [s0 + 232]
	sst s0, [s0 + 244]
	sst s0, [s0 + 236]
	sst s0, [s0 + 248]
	sst s0, [s0 + 252]
	sst s0, [s0 + 204]
	sst s1, [s0 + 272]
	sst s2, [s0 + 276]
	sst s3, [s0 + 280]
	sst s3, [s0 + 284]
	sst s3, [s0 + 288]
	sst s0, [s0 + 292]
	sst s0, [s0 + 304]
	sst s0, [s0 + 296]
	sst s0, [s0 + 308]
	sst s0, [s0 + 300]
	sst s0, [s0 + 312]
	sst s0, [s0 + 316]
	sst s0, [s0 + 268]
	sst s4, [s0 + 336]
	sst s2, [s0 + 340]
	sst s3, [s0 + 344]
	sst s3, [s0 + 348]
	sst s3, [s0 + 352]
	sst s0, [s0 + 356]
	sst s0, [s0 + 368]
	sst s0, [s0 + 360]
	sst s0, [s0 + 372]
	sst s0, [s0 + 364]
	sst s0, [s0 + 376]
	sst s0, [s0 + 380]
	sst s0, [s0 + 324]
	sst s4, [s0 + 400]
	sst s2, [s0 + 404]
	sst s3, [s0 + 408]
	sst s3, [s0 + 412]
	sst s3, [s0 + 416]
	sst s0, [s0 + 420]
	sst s0, [s0 + 432]
	sst s0, [s0 + 424]
	sst s0, [s0 + 436]
	sst s0, [s0 + 428]
	sst s0, [s0 + 440]
	sst s0, [s0 + 444]
	sst s0, [s0 + 388]
	smovi s1, 0 ; smovi s2, -2147483648
	sst s1, [s0 + 144] ; scmpi.eq p1, s1, 0
	sst s1, [s0 + 148] ; scmpi.eq p2, s1, 1
	sst s1, [s0 + 152] ; smov s3, s1
	sst s2, [s0 + 156]
	sst s2, [s0 + 160]
	sld s4, [s0] ; sld s5, [s0 + 4]
	nop
	sst s5, [s0 + 196] ; saddi s6, s4, 0
	sst s6, [s0 + 192]
	sst s1, [s0 + 200]
	(p1) dma.start f0, [s0 + 192]
	(p2) dma.start f1, [s0 + 192]
	sst s1, [s0 + 164]
	sst s1, [s0 + 168]
	sst s1, [s0 + 172]
	sst s2, [s0 + 176]
	sst s2, [s0 + 180]
L71:
	saddi s1, s3, 1 ; smovi s2, 0
	scmpi.eq p1, s1, 8 ; sld s4, [s0 + 156]
	ssel s5, p1, s2, s1 ; sld s6, [s0 + 160]
	sld s1, [s0 + 176] ; sld s2, [s0 + 180]
	pnot p2, p1 ; scmp.ne p3, s3, s5
	sld s7, [s0 + 144] ; scmp.ne p1, s3, s4
	scmpi.ne p4, s6, 0 ; pand p5, p2, p3
	sld s4, [s0 + 164] ; scmp.ne p3, s3, s1
	scmpi.eq p6, s3, 0 ; scmpi.ne p7, s2, 0
	por p6, p1, p4 ; por p8, p3, p7
	(!p5) br L91
	smuli s1, s5, 8 ; sld s2, [s0]
	smovi s5, 1 ; smuli s6, s1, 512
	ssub s1, s5, s7 ; sld s8, [s0 + 4]
	sadd s5, s2, s6 ; smuli s9, s1, 4096
	sst s8, [s0 + 260] ; saddi s2, s5, 0
	sst s2, [s0 + 256] ; saddi s5, s9, 0
	sst s5, [s0 + 264] ; scmpi.eq p1, s1, 0
	scmpi.eq p3, s1, 1 ; (p1) dma.start f0, [s0 + 256]
	(p3) dma.start f1, [s0 + 256]
L91:
	sld s1, [s0 + 172]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L108
	sld s1, [s0 + 176] ; sld s2, [s0 + 180]
	sld s5, [s0 + 164] ; smovi s6, 1
	smuli s8, s1, 8 ; smuli s9, s2, 128
	ssub s1, s6, s5 ; smuli s2, s9, 4
	smuli s5, s1, 4096 ; smuli s6, s8, 512
	sadd s8, s2, s6 ; sld s9, [s0 + 8]
	sld s2, [s0 + 12] ; saddi s6, s5, 8192
	sadd s5, s9, s8 ; sst s6, [s0 + 320]
	sst s2, [s0 + 332] ; saddi s6, s5, 0
	sst s6, [s0 + 328] ; scmpi.eq p1, s1, 0
	scmpi.eq p3, s1, 1 ; smovi s2, 0 ; (p1) dma.start f2, [s0 + 320]
	(p3) dma.start f3, [s0 + 320]
	sst s2, [s0 + 172]
L108:
	(!p6) br L112
	scmpi.eq p1, s7, 0 ; scmpi.eq p3, s7, 1
	(p1) sync.take f0, 1
	(p3) sync.take f1, 1
L112:
	.loc "examples/axpb.pk" 15 5 region=axpb64
	smuli s1, s7, 4096 ; pnot p1, p2 ; vbcasti v0, 2.0f ; vbcasti v1, 1.0f
	.loc "examples/axpb.pk" 15 5 region=axpb64
	smuli s2, s4, 4096 ; por p2, p1, p5 ; vld v2, [s1]
	nop
	.loc "examples/axpb.pk" 15 5 region=axpb64
	vmul.f32 v3, v2, v0
	nop
	.loc "examples/axpb.pk" 15 5 region=axpb64
	vadd.f32 v0, v3, v1
	nop
	.loc "examples/axpb.pk" 15 5 region=axpb64
	(!p2) br L131 ; vst v0, [s2 + 8192]
	.loc "" 0 0 region=axpb64
	smovi s1, 1 ; sld s2, [s0 + 168]
	ssub s5, s1, s4
	scmpi.ne p1, s2, 0
	(!p1) br L127
	scmpi.eq p1, s5, 0 ; scmpi.eq p2, s5, 1
	(p1) sync.take f2, 1
	(p2) sync.take f3, 1
L127:
	smovi s1, 1
	sst s1, [s0 + 168]
	sst s5, [s0 + 164]
	sst s1, [s0 + 172]
L131:
	sst s3, [s0 + 156] ; smovi s1, 0
	sst s1, [s0 + 160] ; (!p5) br L136
	smovi s1, 1
	ssub s2, s1, s7
	sst s2, [s0 + 144]
L136:
	sst s3, [s0 + 176] ; saddi s3, s3, 1
	smovi s1, 0 ; scmpi.lt p1, s3, 8
	sst s1, [s0 + 180] ; (p1) br L71
	sld s1, [s0 + 172]
	nop
	scmpi.ne p1, s1, 0
	(!p1) br L156
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
L156:
	sld s1, [s0 + 164] ; sld s2, [s0 + 168]
	smovi s0, 1
	ssub s3, s0, s1 ; scmpi.ne p1, s2, 0
	(!p1) br L163
	scmpi.eq p1, s3, 0 ; scmpi.eq p2, s3, 1
	(p1) sync.take f2, 1
	(p2) sync.take f3, 1
L163:
	halt ; trace.end axpb64
