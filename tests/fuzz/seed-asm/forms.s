# a test program
.preset small
.region kernel
.region "fusion 1"
.entry main scratch=1024 scratch_smem=64
.operand x in f32[16,16] smem=0
.operand w const f32[4] smem=8 data=wdata
.operand y out f32[16,16] smem=16 hbm=4096

start:
	.loc "k.pk" 3 5 region=kernel
	smovi s1, 0 ; sld s2, [s0 + 8] ; trace.begin kernel
	{ vld v1, [s2 + 64], mask=0x0f, stride=2
	  vbcasti v2, 1.5f ; vadd.f32 v3, v1, v2 }
loop:	(p1) saddi s1, s1, 1 ; scmpi.lt p1, s1, 10 ; mxu.mm mxu0, v3, acc, prec=highest
	(!p1) br loop ; xlu.rot xlu0, v1, by=3 ; vrot.sub v4, v3, by=2 ; vbcast.sub v5, v3, sub=1
	nop
	sandi s3, s1, 0xffff0000 ; vst.msk v1, [s2 - 64], m1, mask=0x3 ; dma.start f1, [s2]
	trace.end kernel ; halt

.data
wdata:	.float 1, 2.5, -3, 1e3
	.bf16 1.0
	.byte 1, 2, 255
