//go:build !purego

#include "textflag.h"

// ADDMUL8 adds x[0:8]·DX to z[0:8], SI = &x[0] and DI = &z[0], BX the carry
// word in and out, and moves SI and DI on by 8 limbs. The high word of limb i
// joins limb i+1's low word on the CF chain (ADCX) and z[i+1] joins on the OF
// chain (ADOX); both chains are folded into BX at the end (the sum cannot exceed
// 2^128-1, so BX does not overflow). Clobbers R8, R9 and the flags.
#define ADDMUL8 \
	XORQ R9, R9 /* CF = OF = 0 */; \
	MULXQ 0(SI), R8, R9; \
	ADCXQ BX, R8; \
	ADOXQ 0(DI), R8; \
	MOVQ  R8, 0(DI); \
	MULXQ 8(SI), R8, BX; \
	ADCXQ R9, R8; \
	ADOXQ 8(DI), R8; \
	MOVQ  R8, 8(DI); \
	MULXQ 16(SI), R8, R9; \
	ADCXQ BX, R8; \
	ADOXQ 16(DI), R8; \
	MOVQ  R8, 16(DI); \
	MULXQ 24(SI), R8, BX; \
	ADCXQ R9, R8; \
	ADOXQ 24(DI), R8; \
	MOVQ  R8, 24(DI); \
	MULXQ 32(SI), R8, R9; \
	ADCXQ BX, R8; \
	ADOXQ 32(DI), R8; \
	MOVQ  R8, 32(DI); \
	MULXQ 40(SI), R8, BX; \
	ADCXQ R9, R8; \
	ADOXQ 40(DI), R8; \
	MOVQ  R8, 40(DI); \
	MULXQ 48(SI), R8, R9; \
	ADCXQ BX, R8; \
	ADOXQ 48(DI), R8; \
	MOVQ  R8, 48(DI); \
	MULXQ 56(SI), R8, BX; \
	ADCXQ R9, R8; \
	ADOXQ 56(DI), R8; \
	MOVQ  R8, 56(DI); \
	MOVQ  $0, R9 /* MOV leaves the flags alone */; \
	ADCXQ R9, BX; \
	ADOXQ R9, BX; \
	LEAQ  64(SI), SI; \
	LEAQ  64(DI), DI

// ADDMUL1 is ADDMUL8 for one limb, with one carry chain (ADD/ADC).
#define ADDMUL1 \
	MULXQ 0(SI), R8, R9; \
	ADDQ  BX, R8; \
	ADCQ  $0, R9; \
	ADDQ  0(DI), R8; \
	ADCQ  $0, R9; \
	MOVQ  R8, 0(DI); \
	MOVQ  R9, BX; \
	LEAQ  8(SI), SI; \
	LEAQ  8(DI), DI

// func addMulVVWADX(z, x []uint64, y uint64) (c uint64)
//
// z[i] += x[i]·y, from i = 0, in blocks of 8 limbs (ADDMUL8) and then one by
// one (ADDMUL1). RDX = y for MULX; BX carries the high word between limbs.
TEXT ·addMulVVWADX(SB), NOSPLIT, $0-64
	MOVQ z_base+0(FP), DI
	MOVQ z_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ y+48(FP), DX
	XORQ BX, BX
	MOVQ CX, R11
	SHRQ $3, R11
	JZ   adxTail

adxLoop8:
	ADDMUL8
	DECQ  R11
	JNZ   adxLoop8

adxTail:
	ANDQ $7, CX
	JZ   adxDone

adxLoop1:
	ADDMUL1
	DECQ  CX
	JNZ   adxLoop1

adxDone:
	MOVQ BX, c+56(FP)
	RET

// MULQSTEP(off) adds x[off/8]·R9 to z[off/8], SI = &x and DI = &z, with BX the
// carry word in and out (MULQ: DX:AX = AX·R9). Clobbers AX, DX and the flags.
#define MULQSTEP(off) \
	MOVQ off(SI), AX; \
	MULQ R9; \
	ADDQ BX, AX; \
	ADCQ $0, DX; \
	ADDQ AX, off(DI); \
	ADCQ $0, DX; \
	MOVQ DX, BX

// func addMulVVWMULQ(z, x []uint64, y uint64) (c uint64)
//
// z[i] += x[i]·y with MULQ (DX:AX = AX·R9); BX carries the high word.
TEXT ·addMulVVWMULQ(SB), NOSPLIT, $0-64
	MOVQ z_base+0(FP), DI
	MOVQ z_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ y+48(FP), R9
	XORQ BX, BX
	MOVQ CX, R11
	SHRQ $2, R11
	JZ   mulqTail

mulqLoop4:
	MULQSTEP(0)
	MULQSTEP(8)
	MULQSTEP(16)
	MULQSTEP(24)
	LEAQ 32(SI), SI
	LEAQ 32(DI), DI
	DECQ R11
	JNZ  mulqLoop4

mulqTail:
	ANDQ $3, CX
	JZ   mulqDone

mulqLoop1:
	MULQSTEP(0)
	LEAQ 8(SI), SI
	LEAQ 8(DI), DI
	DECQ CX
	JNZ  mulqLoop1

mulqDone:
	MOVQ BX, c+56(FP)
	RET

// The fused row loops below run the same MULX/ADCX/ADOX inner loop as
// addMulVVWADX over every row of a product or a reduction, saving a Go call
// per row. Registers: DX multiplier, SI x, DI z, BX carry word, R8 and R9
// products, R11 and CX inner counters, R14 row length.

// func redcRowsADX(t, n []uint64, m0inv uint64) (cc uint64)
//
// For i in 0..len(n)-1: q = t[i]·m0inv; t[i:i+len(n)] += n·q, and the carry
// word plus the previous row's carry bit cc go into t[i+len(n)], whose carry
// out becomes cc. Requires len(t) ≥ 2·len(n) ≥ 2.
TEXT ·redcRowsADX(SB), NOSPLIT, $8-64
	MOVQ t_base+0(FP), R12
	MOVQ n_base+24(FP), R13
	MOVQ n_len+32(FP), R14
	MOVQ m0inv+48(FP), AX
	XORQ R10, R10 // cc
	MOVQ R14, rows-8(SP)

redcRow:
	MOVQ  0(R12), DX
	IMULQ AX, DX // q
	MOVQ  R12, DI
	MOVQ  R13, SI
	XORQ BX, BX
	MOVQ R14, R11
	SHRQ $3, R11
	JZ   redcTail

redcLoop8:
	ADDMUL8
	DECQ  R11
	JNZ   redcLoop8

redcTail:
	MOVQ R14, CX
	ANDQ $7, CX
	JZ   redcRowEnd

redcLoop1:
	ADDMUL1
	DECQ  CX
	JNZ   redcLoop1

redcRowEnd:
	// t[i+n] += BX + cc; DI = &t[i+n].
	MOVQ 0(DI), R8
	ADDQ R10, R8
	MOVQ $0, R10
	ADCQ $0, R10
	ADDQ BX, R8
	ADCQ $0, R10
	MOVQ R8, 0(DI)
	LEAQ 8(R12), R12
	DECQ rows-8(SP)
	JNZ  redcRow
	MOVQ R10, cc+56(FP)
	RET

// func mulRowsADX(t, x, y []uint64)
//
// For i in 0..len(x)-1: t[i:i+len(x)] += x·y[i], and t[i+len(x)] = the carry
// word. With t[:len(x)] zero on entry this sets t[:2·len(x)] = x·y. Requires
// len(y) ≥ len(x) ≥ 1 and len(t) ≥ 2·len(x).
TEXT ·mulRowsADX(SB), NOSPLIT, $8-72
	MOVQ t_base+0(FP), R12
	MOVQ x_base+24(FP), R13
	MOVQ x_len+32(FP), R14
	MOVQ y_base+48(FP), AX
	MOVQ R14, rows-8(SP)

mulRow:
	MOVQ 0(AX), DX
	MOVQ R12, DI
	MOVQ R13, SI
	XORQ BX, BX
	MOVQ R14, R11
	SHRQ $3, R11
	JZ   mulTail

mulLoop8:
	ADDMUL8
	DECQ  R11
	JNZ   mulLoop8

mulTail:
	MOVQ R14, CX
	ANDQ $7, CX
	JZ   mulRowEnd

mulLoop1:
	ADDMUL1
	DECQ  CX
	JNZ   mulLoop1

mulRowEnd:
	MOVQ BX, 0(DI)
	LEAQ 8(R12), R12
	LEAQ 8(AX), AX
	DECQ rows-8(SP)
	JNZ  mulRow
	RET

// func sqrRowsADX(t, x []uint64)
//
// For i in 0..len(x)-2: t[2i+1:i+len(x)] += x[i+1:]·x[i], and t[i+len(x)] =
// the carry word: with t zero on entry, t becomes the sum of the products
// x[i]·x[j], i < j. Requires len(x) ≥ 2 and len(t) ≥ 2·len(x).
TEXT ·sqrRowsADX(SB), NOSPLIT, $0-48
	MOVQ t_base+0(FP), R12
	LEAQ 8(R12), R12 // &t[1]
	MOVQ x_base+24(FP), R13
	MOVQ x_len+32(FP), R14
	DECQ R14 // row length n-1-i

sqrRow:
	MOVQ 0(R13), DX
	MOVQ R12, DI
	LEAQ 8(R13), SI
	XORQ BX, BX
	MOVQ R14, R11
	SHRQ $3, R11
	JZ   sqrTail

sqrLoop8:
	ADDMUL8
	DECQ  R11
	JNZ   sqrLoop8

sqrTail:
	MOVQ R14, CX
	ANDQ $7, CX
	JZ   sqrRowEnd

sqrLoop1:
	ADDMUL1
	DECQ  CX
	JNZ   sqrLoop1

sqrRowEnd:
	MOVQ BX, 0(DI)
	LEAQ 16(R12), R12
	LEAQ 8(R13), R13
	DECQ R14
	JNZ  sqrRow
	RET

// func addDoubleSquaresADX(t, x []uint64)
//
// t = 2t + Σ x[i]²·2^(128i) over len(x) limbs pairs of t: the doubling runs on
// the CF chain (ADCX t, t), the squares on the OF chain (ADOX). JCXZ and LEAQ
// leave both chains alone. Requires len(t) ≥ 2·len(x).
TEXT ·addDoubleSquaresADX(SB), NOSPLIT, $0-48
	MOVQ t_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), CX
	XORQ AX, AX // CF = OF = 0

dsqLoop:
	JCXZQ dsqDone
	MOVQ  0(SI), DX
	MULXQ DX, R8, R9
	MOVQ  0(DI), R10
	MOVQ  8(DI), R11
	ADCXQ R10, R10
	ADCXQ R11, R11
	ADOXQ R8, R10
	ADOXQ R9, R11
	MOVQ  R10, 0(DI)
	MOVQ  R11, 8(DI)
	LEAQ  8(SI), SI
	LEAQ  16(DI), DI
	LEAQ  -1(CX), CX
	JMP   dsqLoop

dsqDone:
	RET
