.preset small
nop
nop
