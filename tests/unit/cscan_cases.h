/*
 * cscan_cases.h - PK_MODULE invocations that check_cscan.c both compiles
 * (so the C compiler stringizes them) and scans as text: the scanner's
 * strings must be the compiler's.  Odd spacing, comments, literals with
 * ')' and quotes, splices and newlines on purpose.
 */
PK_MODULE(plain, kernel k(x: f32[8, 128]) { })
PK_MODULE(  spaced  ,   a    b
	c		d   )
PK_MODULE(comments, a /* ) , */ b // ) not the end
    c /* multi
    line */ d)
PK_MODULE(literals, s = ")" ; t = "a\"b)" ; c = ')' ; q = '\'' ; e = "\\")
PK_MODULE(nested, f(g(h), (i, j)) [k, l] { m, n })
PK_MODULE(splice, ab cd ef \
  gh \
ij)
PK_MODULE(numbers, 1e+5 0x1p-3 .5 1.5e-3f x+1)
PK_MODULE(directive_text, PK_PP(#define N 8) PK_PP(#include "x.pk") a # b ## c)
PK_MODULE(
    newline_name
    ,
    tail
)
