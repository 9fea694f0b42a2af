# Every directive, for the fuzz corpus.
.preset v5e
.region "kernel"
.region fusion.2
.data
a:  .word 1, -2, 0xdeadbeef
    .byte 7
b:  .float 1.5, -2
    .bf16 1.0, 3
    .zero 3
    .align 8
.text
.entry first pc=two scratch=4096 scratch_smem=128
.operand x in f32[8,128] smem=0
.operand w const f32[2] smem=8 data=b
.operand y inout i32[] smem=16 hbm=8192
.operand k smem u8[4,1] smem=24
.entry second
one: .loc "a b.pk" 7 3 region=fusion.2
     nop
two: halt
