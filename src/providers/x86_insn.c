/*
 * x86_64 instruction length decoding: prefixes, REX, VEX and EVEX, the
 * one-, two- and three-byte opcode maps, ModRM/SIB/displacement and
 * immediates.  Lengths, and of what instructions do only the ways out of
 * a function: ret, and jumps (to see whether they leave it).
 */
#include "providers/x86_insn.h"

#include <stdbool.h>

/* Immediate kinds. */
enum {
	I0,	/* none */
	IB,	/* 1 byte */
	IW,	/* 2 bytes */
	IZ,	/* 2 with 0x66, else 4 */
	IV,	/* 8 with REX.W, 2 with 0x66, else 4 */
	IE,	/* enter: 3 */
	IM,	/* moffs: 8, or 4 with 0x67 */
	IJ,	/* rel32 */
	IG6,	/* group 3 (F6): ib for /0 and /1 */
	IG7,	/* group 3 (F7): iz for /0 and /1 */
	BAD,	/* invalid in 64-bit mode or not handled */
};

#define M 0x80	/* has a ModRM byte */

/* One-byte opcodes: M | immediate kind. */
static const uint8_t map1[256] = {
	/* 00 */ M, M, M, M, IB, IZ, BAD, BAD, M, M, M, M, IB, IZ, BAD, BAD,
	/* 10 */ M, M, M, M, IB, IZ, BAD, BAD, M, M, M, M, IB, IZ, BAD, BAD,
	/* 20 */ M, M, M, M, IB, IZ, BAD, BAD, M, M, M, M, IB, IZ, BAD, BAD,
	/* 30 */ M, M, M, M, IB, IZ, BAD, BAD, M, M, M, M, IB, IZ, BAD, BAD,
	/* 40 */ BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	/* 50 */ I0, I0, I0, I0, I0, I0, I0, I0, I0, I0, I0, I0, I0, I0, I0, I0,
	/* 60 */ BAD, BAD, BAD, M, BAD, BAD, BAD, BAD, IZ, M | IZ, IB, M | IB, I0, I0, I0, I0,
	/* 70 */ IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB,
	/* 80 */ M | IB, M | IZ, BAD, M | IB, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 90 */ I0, I0, I0, I0, I0, I0, I0, I0, I0, I0, BAD, I0, I0, I0, I0, I0,
	/* A0 */ IM, IM, IM, IM, I0, I0, I0, I0, IB, IZ, I0, I0, I0, I0, I0, I0,
	/* B0 */ IB, IB, IB, IB, IB, IB, IB, IB, IV, IV, IV, IV, IV, IV, IV, IV,
	/* C0 */ M | IB, M | IB, IW, I0, BAD, BAD, M | IB, M | IZ, IE, I0, IW, I0, I0, IB, BAD, I0,
	/* D0 */ M, M, M, M, BAD, BAD, BAD, I0, M, M, M, M, M, M, M, M,
	/* E0 */ IB, IB, IB, IB, IB, IB, IB, IB, IJ, IJ, BAD, IB, I0, I0, I0, I0,
	/* F0 */ BAD, I0, BAD, BAD, I0, I0, M | IG6, M | IG7, I0, I0, I0, I0, I0, I0, M, M,
};

/* Two-byte opcodes (0F xx). */
static const uint8_t map2[256] = {
	/* 00 */ M, M, M, M, BAD, I0, I0, I0, I0, I0, BAD, I0, BAD, M, I0, BAD,
	/* 10 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 20 */ M, M, M, M, BAD, BAD, BAD, BAD, M, M, M, M, M, M, M, M,
	/* 30 */ I0, I0, I0, I0, I0, I0, BAD, I0, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	/* 40 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 50 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 60 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 70 */ M | IB, M | IB, M | IB, M | IB, M, M, M, I0, M, M, M, M, M, M, M, M,
	/* 80 */ IJ, IJ, IJ, IJ, IJ, IJ, IJ, IJ, IJ, IJ, IJ, IJ, IJ, IJ, IJ, IJ,
	/* 90 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* A0 */ I0, I0, I0, M, M | IB, M, BAD, BAD, I0, I0, I0, M, M | IB, M, M, M,
	/* B0 */ M, M, M, M, M, M, M, M, M, M, M | IB, M, M, M, M, M,
	/* C0 */ M, M, M | IB, M, M | IB, M | IB, M | IB, M, I0, I0, I0, I0, I0, I0, I0, I0,
	/* D0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* E0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* F0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
};

/* VEX/EVEX map 0F opcodes with an imm8. */
static bool vex0f_imm(uint8_t op)
{
	return (op >= 0x70 && op <= 0x73) || op == 0xc2 || op == 0xc4 || op == 0xc5 || op == 0xc6;
}

/* ModRM, SIB and displacement bytes from p[0] (the ModRM byte); -1 if short. */
static int modrm_len(const uint8_t *p, size_t n)
{
	if (n < 1)
		return -1;
	int mod = p[0] >> 6, rm = p[0] & 7, len = 1;

	if (mod == 3)
		return 1;
	if (rm == 4) {
		if (n < 2)
			return -1;
		len++;
		if (mod == 0 && (p[1] & 7) == 5)
			len += 4;
	} else if (mod == 0 && rm == 5) {
		len += 4;		/* rip-relative */
	}
	if (mod == 1)
		len += 1;
	else if (mod == 2)
		len += 4;
	return len;
}

int dt_x86_insn_len(const uint8_t *p, size_t n)
{
	size_t i = 0;
	bool opsize = false, addrsize = false, rexw = false;

	/* Legacy prefixes. */
	for (; i < n && i < 14; i++) {
		uint8_t b = p[i];
		if (b == 0x66)
			opsize = true;
		else if (b == 0x67)
			addrsize = true;
		else if (!(b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x36 ||
			   b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65))
			break;
	}
	if (i >= n)
		return -1;
	/* VEX and EVEX (always, in 64-bit mode). */
	if (p[i] == 0xc5 || p[i] == 0xc4 || p[i] == 0x62) {
		int map;
		size_t op;
		if (p[i] == 0xc5) {
			map = 1;
			op = i + 2;
		} else if (p[i] == 0xc4) {
			if (i + 1 >= n)
				return -1;
			map = p[i + 1] & 0x1f;
			op = i + 3;
		} else {
			if (i + 1 >= n)
				return -1;
			map = p[i + 1] & 7;
			op = i + 4;
		}
		if (op >= n || map == 0 || map == 4 || map > 6)
			return -1;
		/* vzeroupper and vzeroall have no ModRM. */
		if (p[i] != 0x62 && map == 1 && p[op] == 0x77)
			return (int)op + 1;
		int m = modrm_len(p + op + 1, n - op - 1);
		if (m < 0)
			return -1;
		size_t len = op + 1 + (size_t)m;
		if (map == 3 || (map == 1 && vex0f_imm(p[op])))
			len++;
		return len <= n ? (int)len : -1;
	}
	/* REX. */
	if ((p[i] & 0xf0) == 0x40) {
		rexw = (p[i] & 8) != 0;
		if (++i >= n)
			return -1;
	}
	uint8_t op = p[i++], kind;
	if (op == 0x0f) {
		if (i >= n)
			return -1;
		uint8_t op2 = p[i++];
		if (op2 == 0x38 || op2 == 0x3a) {
			if (i >= n)
				return -1;
			i++;
			kind = M | (op2 == 0x3a ? IB : I0);
		} else {
			kind = map2[op2];
		}
	} else {
		kind = map1[op];
		/* XOP (8F with a map of 8 or more) is AMD-only: not handled. */
		if (op == 0x8f && i < n && (p[i] & 0x1f) >= 8)
			return -1;
	}
	if ((kind & ~M) == BAD)
		return -1;
	int reg = 0;
	if (kind & M) {
		if (i >= n)
			return -1;
		reg = (p[i] >> 3) & 7;
		int m = modrm_len(p + i, n - i);
		if (m < 0)
			return -1;
		i += (size_t)m;
	}
	switch (kind & ~M) {
	case IB:
		i += 1;
		break;
	case IW:
		i += 2;
		break;
	case IZ:
		i += opsize ? 2 : 4;
		break;
	case IV:
		i += rexw ? 8 : opsize ? 2 : 4;
		break;
	case IE:
		i += 3;
		break;
	case IM:
		i += addrsize ? 4 : 8;
		break;
	case IJ:
		i += 4;
		break;
	case IG6:
		i += reg <= 1 ? 1 : 0;
		break;
	case IG7:
		i += reg <= 1 ? (opsize ? 2 : 4) : 0;
		break;
	default:
		break;
	}
	return i <= n ? (int)i : -1;
}

/* Offset of the opcode byte (after legacy prefixes and REX); n if none. */
static size_t opcode_at(const uint8_t *p, size_t n)
{
	size_t i = 0;

	while (i < n && (p[i] == 0x66 || p[i] == 0x67 || p[i] == 0xf0 || p[i] == 0xf2 ||
			 p[i] == 0xf3 || p[i] == 0x2e || p[i] == 0x36 || p[i] == 0x3e ||
			 p[i] == 0x26 || p[i] == 0x64 || p[i] == 0x65))
		i++;
	if (i < n && (p[i] & 0xf0) == 0x40)
		i++;
	return i;
}

/*
 * Whether the instruction at `off` (`len` bytes) leaves the function: a
 * ret, or a relative jump whose target is outside [0, size).
 */
static bool leaves(const uint8_t *code, size_t size, size_t off, int len)
{
	const uint8_t *p = code + off;
	size_t o = opcode_at(p, (size_t)len);
	int64_t rel;

	if (o >= (size_t)len)
		return false;
	switch (p[o]) {
	case 0xc3: case 0xc2: case 0xcb: case 0xca:
		return true;
	case 0xe9:
		if (o + 5 > (size_t)len)
			return false;
		rel = (int32_t)((uint32_t)p[o + 1] | (uint32_t)p[o + 2] << 8 |
				(uint32_t)p[o + 3] << 16 | (uint32_t)p[o + 4] << 24);
		break;
	case 0xeb: case 0xe0: case 0xe1: case 0xe2: case 0xe3:
	case 0x70: case 0x71: case 0x72: case 0x73: case 0x74: case 0x75: case 0x76: case 0x77:
	case 0x78: case 0x79: case 0x7a: case 0x7b: case 0x7c: case 0x7d: case 0x7e: case 0x7f:
		if (o + 2 > (size_t)len)
			return false;
		rel = (int8_t)p[o + 1];
		break;
	case 0x0f:
		if (o + 6 > (size_t)len || (p[o + 1] & 0xf0) != 0x80)
			return false;
		rel = (int32_t)((uint32_t)p[o + 2] | (uint32_t)p[o + 3] << 8 |
				(uint32_t)p[o + 4] << 16 | (uint32_t)p[o + 5] << 24);
		break;
	default:
		return false;
	}
	int64_t target = (int64_t)off + len + rel;
	return target < 0 || target >= (int64_t)size;
}

bool dt_x86_func_returns(const uint8_t *code, size_t size)
{
	size_t off = 0;

	while (off < size) {
		int len = dt_x86_insn_len(code + off, size - off);
		if (len <= 0)
			break;
		if (leaves(code, size, off, len))
			return true;
		off += (size_t)len;
	}
	for (; off < size; off++)
		if (code[off] == 0xc3 || code[off] == 0xc2 || code[off] == 0xcb ||
		    code[off] == 0xca || code[off] == 0xe9 || code[off] == 0xeb)
			return true;
	return false;
}
