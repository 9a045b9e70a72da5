#!/usr/bin/env python3
"""
Differential testing of the optimisation passes (src/compiler/cg_opt*.c)
on random BPF functions: straight-line code, if and if-else over it
(JMP and JMP32, every condition, registers and immediates), 64- and
32-bit arithmetic, ld_imm64, stack loads and stores of every size
through r10 and through registers holding frame addresses (stored to
the stack and loaded back), atomic adds with and without fetch, helper
calls that read or write the stack through r1, early exits.  Each
function and what optdrv (the passes as a filter) leaves of it run in
a small BPF interpreter on several argument sets; r0 at exit (which
folds in every register and stack slot) and the helpers' calls must be
the same.

    optfuzz.py --driver build/test/optdrv --seed 1 --count 2000

Exit status 0 when all agree, 1 on a mismatch (printed with both
functions), 77 when the driver is missing.
"""
import argparse
import os
import random
import struct
import subprocess
import sys
M64=(1<<64)-1; M32=(1<<32)-1
ALU,ALU64,JMP,JMP32,LDX,ST,STX=0x04,0x07,0x05,0x06,0x01,0x02,0x03
ADD,SUB,MUL,DIV,OR,AND,LSH,RSH,NEG,MOD,XOR,MOV,ARSH=[x<<4 for x in range(13)]
K,X=0,8
B,H,W,DW=0x10,0x08,0x00,0x18
MEM,ATOMIC=0x60,0xc0
JA,JEQ,JGT,JGE,JSET,JNE,JSGT,JSGE,CALL,EXIT,JLT,JLE,JSLT,JSLE=0x00,0x10,0x20,0x30,0x40,0x50,0x60,0x70,0x80,0x90,0xa0,0xb0,0xc0,0xd0
FP=0x100000
def ins(code,dst=0,src=0,off=0,imm=0): return [code,dst,src,off,imm]
def pack(p): return b''.join(struct.pack('<BBhi',c,(d&15)|((s&15)<<4),o,i) for c,d,s,o,i in p)
def unpack(b):
    r=[]
    for k in range(0,len(b),8):
        c,ds,o,i=struct.unpack('<BBhi',b[k:k+8]); r.append([c,ds&15,ds>>4,o,i])
    return r
def sx(v,bits):
    v&=(1<<bits)-1
    return v-(1<<bits) if v>>(bits-1) else v
SZ={B:1,H:2,W:4,DW:8}
def run(p,args):
    R=[0]*11; R[10]=FP
    for i,a in enumerate(args): R[1+i]=a
    mem=bytearray(512); trace=[]
    def addr(a,n):
        o=a-(FP-512)
        if o<0 or o+n>512: raise Exception('oob %x'%a)
        return o
    pc=0; steps=0
    while True:
        steps+=1
        if steps>10000: raise Exception('loop')
        c,d,s,o,i=p[pc]; cls=c&7; pc+=1
        if c==0x18:
            R[d]=((i&M32)|((p[pc][4]&M32)<<32)); pc+=1; continue
        if cls in (ALU,ALU64):
            op=c&0xf0; src=R[s] if c&8 else (i&M64 if cls==ALU64 else i&M32)
            if cls==ALU64:
                a=R[d]; b=src&M64
                if op==ADD:r=a+b
                elif op==SUB:r=a-b
                elif op==MUL:r=a*b
                elif op==DIV:r=a//b if b else 0
                elif op==MOD:r=a%b if b else a
                elif op==OR:r=a|b
                elif op==AND:r=a&b
                elif op==XOR:r=a^b
                elif op==LSH:r=a<<(b&63)
                elif op==RSH:r=a>>(b&63)
                elif op==ARSH:r=sx(a,64)>>(b&63)
                elif op==NEG:r=-a
                elif op==MOV:r=b
                R[d]=r&M64
            else:
                a=R[d]&M32; b=src&M32
                if op==ADD:r=a+b
                elif op==SUB:r=a-b
                elif op==MUL:r=a*b
                elif op==DIV:r=a//b if b else 0
                elif op==MOD:r=a%b if b else a
                elif op==OR:r=a|b
                elif op==AND:r=a&b
                elif op==XOR:r=a^b
                elif op==LSH:r=a<<(b&31)
                elif op==RSH:r=a>>(b&31)
                elif op==ARSH:r=sx(a,32)>>(b&31)
                elif op==NEG:r=-a
                elif op==MOV:r=b
                R[d]=r&M32
        elif cls==LDX:
            n=SZ[c&0x18]; k=addr(R[s]+o,n); R[d]=int.from_bytes(mem[k:k+n],'little')
        elif cls==ST:
            n=SZ[c&0x18]; k=addr(R[d]+o,n); mem[k:k+n]=(i&((1<<(8*n))-1)).to_bytes(n,'little')
        elif cls==STX:
            n=SZ[c&0x18]; k=addr(R[d]+o,n)
            if c&0xe0==ATOMIC:
                old=int.from_bytes(mem[k:k+n],'little'); new=(old+R[s])&((1<<(8*n))-1)
                mem[k:k+n]=new.to_bytes(n,'little')
                if i&1: R[s]=old
            else:
                mem[k:k+n]=(R[s]&((1<<(8*n))-1)).to_bytes(n,'little')
        elif cls in (JMP,JMP32):
            op=c&0xf0
            if op==EXIT: return R[0],trace
            if op==CALL:
                if i==5: R[0]=12345
                elif i==4:
                    k=addr(R[1],8); mem[k:k+8]=((R[3]^0x55)&M64).to_bytes(8,'little'); R[0]=0
                else:
                    extra=0
                    if FP-512<=R[1]<=FP-8: k=addr(R[1],8); extra=int.from_bytes(mem[k:k+8],'little')
                    trace.append((R[1],R[2],R[3],extra)); R[0]=(R[1]*3+R[2]*5+extra)&M64
                for r in range(1,6): R[r]=0xbad0+r
                continue
            if op==JA: pc+=o; continue
            if cls==JMP: a=R[d]; b=R[s] if c&8 else i&M64; bits=64
            else: a=R[d]&M32; b=(R[s] if c&8 else i)&M32; bits=32
            if op==JEQ:t=a==b
            elif op==JNE:t=a!=b
            elif op==JGT:t=a>b
            elif op==JGE:t=a>=b
            elif op==JLT:t=a<b
            elif op==JLE:t=a<=b
            elif op==JSET:t=(a&b)!=0
            elif op==JSGT:t=sx(a,bits)>sx(b,bits)
            elif op==JSGE:t=sx(a,bits)>=sx(b,bits)
            elif op==JSLT:t=sx(a,bits)<sx(b,bits)
            elif op==JSLE:t=sx(a,bits)<=sx(b,bits)
            if t: pc+=o
        else: raise Exception('bad insn %x'%c)
IMMS=[0,1,-1,2,3,7,8,16,31,32,63,255,-256,0x7fffffff,-0x80000000,65535,12345]
def gen(rng):
    p=[]
    defined=set(range(0,10))
    # prefix: init regs and stack
    for r in (0,6,7,8): p.append(ins(ALU64|MOV|K,r,0,0,rng.choice(IMMS)))
    p.append(ins(ALU64|MOV|X,9,10)); p.append(ins(ALU64|ADD|K,9,0,0,-32))
    for s in range(8,129,8): p.append(ins(ST|MEM|DW,10,0,-s,rng.choice(IMMS)))
    def body(n,defd):
        out=[]
        for _ in range(n):
            r=rng.random()
            regs=sorted(defd)
            dst=rng.choice([x for x in range(0,9)])
            if r<0.35:
                op=rng.choice([ADD,SUB,MUL,DIV,OR,AND,LSH,RSH,NEG,MOD,XOR,MOV,MOV,MOV,ARSH])
                cls=ALU64 if rng.random()<0.75 else ALU
                if op!=MOV and dst not in defd: op=MOV
                if op==NEG: out.append(ins(cls|NEG|K,dst)); continue
                if rng.random()<0.5 and [x for x in regs if x!=10]:
                    src=rng.choice([x for x in regs if x!=10] )
                    out.append(ins(cls|op|X,dst,src))
                else:
                    imm=rng.choice(IMMS)
                    if op in (LSH,RSH,ARSH): imm=rng.randrange(0,64 if cls==ALU64 else 32)
                    out.append(ins(cls|op|K,dst,0,0,imm))
                defd.add(dst)
            elif r<0.37:
                v=rng.getrandbits(64) if rng.random()<0.7 else rng.choice(IMMS)&M64
                out.append(ins(0x18,dst,0,0,sx(v&M32,32))); out.append(ins(0,0,0,0,sx(v>>32,32))); defd.add(dst)
            elif r<0.40:
                # pointer snippets: a frame address in a register, through it, stored and reloaded
                c=-8*rng.randrange(2,17); y=rng.choice([x for x in range(0,9) if x!=dst])
                out.append(ins(ALU64|MOV|X,dst,10)); out.append(ins(ALU64|ADD|K,dst,0,0,c))
                k=rng.random()
                if k<0.3:
                    out.append(ins(ST|MEM|DW,dst,0,0,rng.choice(IMMS)))
                    out.append(ins(LDX|MEM|rng.choice([W,DW]),y,10,c))
                elif k<0.6:
                    out.append(ins(STX|MEM|DW,10,dst,-8))
                    if rng.random()<0.5: out.append(ins(ALU64|MOV|X,y,dst))
                    else: out.append(ins(LDX|MEM|DW,y,10,-8))
                    out.append(ins(STX|MEM|rng.choice([B,W,DW]),y,rng.choice([0,6,7,8]),0))
                    out.append(ins(LDX|MEM|DW,y,10,c))
                else:
                    out.append(ins(ALU64|MOV|X,y,dst)); out.append(ins(ALU64|ADD|K,y,0,0,4))
                    out.append(ins(ST|MEM|W,y,0,0,rng.choice(IMMS)))
                    out.append(ins(LDX|MEM|DW,y,dst,0))
                defd.add(dst); defd.add(y)
            elif r<0.42:
                # frame address into a register
                c=-8*rng.randrange(1,17)
                out.append(ins(ALU64|MOV|X,dst,10)); out.append(ins(ALU64|ADD|K,dst,0,0,c))
                defd.add(dst)
            elif r<0.55:
                sz=rng.choice([B,H,W,DW,DW,DW]); n=SZ[sz]
                base=rng.choice([10,10,9])
                off=-rng.randrange(1,129//n)*n if base==10 else rng.randrange(-96//n,32//n)*n
                if base==9 and not -96<=off<=24: off=0
                out.append(ins(LDX|MEM|sz,dst,base,off)); defd.add(dst)
            elif r<0.7:
                sz=rng.choice([B,H,W,DW,DW,DW]); n=SZ[sz]
                base=rng.choice([10,10,9])
                off=-rng.randrange(1,129//n)*n if base==10 else rng.randrange(-96//n,32//n)*n
                if base==9 and not -96<=off<=24: off=0
                if rng.random()<0.5 and regs:
                    out.append(ins(STX|MEM|sz,base,rng.choice(regs),off))
                else:
                    out.append(ins(ST|MEM|sz,base,0,off,rng.choice(IMMS)))
            elif r<0.74 and regs:
                sz=rng.choice([W,DW]); n=SZ[sz]
                off=-rng.randrange(1,129//n)*n
                src=rng.choice([x for x in regs if x not in (9,10)]) if [x for x in regs if x not in (9,10)] else 0
                fetch=rng.random()<0.5
                if src in defd:
                    out.append(ins(STX|ATOMIC|sz,10,src,off,1 if fetch else 0))
            elif r<0.8:
                # call
                h=rng.choice([5,6,6,4])
                if h==4:
                    out.append(ins(ALU64|MOV|X,1,10)); out.append(ins(ALU64|ADD|K,1,0,0,-8*rng.randrange(1,17)))
                    out.append(ins(ALU64|MOV|K,3,0,0,rng.choice(IMMS)))
                elif h==6:
                    if rng.random()<0.5:
                        out.append(ins(ALU64|MOV|X,1,10)); out.append(ins(ALU64|ADD|K,1,0,0,-8*rng.randrange(1,17)))
                    else:
                        out.append(ins(ALU64|MOV|X,1,rng.choice(regs)) if regs else ins(ALU64|MOV|K,1,0,0,1))
                    for a in (2,3):
                        if rng.random()<0.5 and regs: out.append(ins(ALU64|MOV|X,a,rng.choice([x for x in regs if x!=10] or [0])))
                        else: out.append(ins(ALU64|MOV|K,a,0,0,rng.choice(IMMS)))
                out.append(ins(JMP|CALL,0,0,0,h))
                for x in (1,2,3,4,5): defd.discard(x)
                defd.add(0)
            elif r<0.84 and [x for x in regs if x!=10]:
                # a test of a boolean made just before (jump threading), or of a sign extension
                a=rng.choice([x for x in regs if x!=10]); t=rng.choice([x for x in range(0,9) if x!=a])
                jc=rng.choice([JMP,JMP,JMP32]); op=rng.choice([JEQ,JNE,JGT,JGE,JLT,JLE,JSET,JSGT,JSGE,JSLT,JSLE])
                if rng.random()<0.5:
                    mc=rng.choice([ALU64,ALU64,ALU])
                    out.append(ins(mc|MOV|K,t,0,0,rng.choice([0,1,-1,5])))
                    out.append(ins(jc|op|K,a,0,1,rng.choice(IMMS)))
                    out.append(ins(mc|MOV|K,t,0,0,rng.choice([0,1,-1,5])))
                    jc=rng.choice([JMP,JMP,JMP32]); op=rng.choice([JEQ,JNE,JSGT,JSET,JLT])
                else:
                    out.append(ins(ALU64|MOV|X,t,a))
                    out.append(ins(ALU64|LSH|K,t,0,0,32)); out.append(ins(ALU64|ARSH|K,t,0,0,32))
                    if rng.random()<0.5: out.append(ins(ALU64|MOV|K,rng.choice([x for x in range(0,9) if x!=t]),0,0,3))
                    jc=JMP
                inner=set(defd)|{t}
                sub=body(rng.randrange(1,5),inner)
                out.append(ins(jc|op|K,t,0,len(sub),rng.choice([0,1,-1,5,0x7fffffff])))
                out+=sub
                newd=(defd|{t}) & inner
                defd.clear(); defd.update(newd)
                if rng.random()<0.6: out.append(ins(ALU64|MOV|K,t,0,0,7))
            elif r<0.97:
                # if / if-else
                inner=set(defd)
                sub=body(rng.randrange(1,6),inner)
                jc=rng.choice([JMP,JMP,JMP32]); op=rng.choice([JEQ,JNE,JGT,JGE,JLT,JLE,JSET,JSGT,JSGE,JSLT,JSLE])
                a=rng.choice([x for x in regs if x!=10] or [0])
                if rng.random()<0.5 and regs: j=ins(jc|op|X,a,rng.choice([x for x in regs if x!=10] or [0]))
                else: j=ins(jc|op|K,a,0,0,rng.choice(IMMS))
                if rng.random()<0.4:
                    inner2=set(defd); sub2=body(rng.randrange(1,5),inner2)
                    j[3]=len(sub)+1
                    out.append(j); out+=sub; out.append(ins(JMP|JA,0,0,len(sub2))); out+=sub2
                    defd &= (inner & inner2); defd |= (inner & inner2)
                    newd = inner & inner2
                    defd.clear(); defd.update(newd)
                else:
                    j[3]=len(sub); out.append(j); out+=sub
                    newd = defd & inner
                    defd.clear(); defd.update(newd)
            else:
                # early exit on a path
                if 0 in defd:
                    out.append(ins(JMP|JNE|K,rng.choice([x for x in regs if x!=10] or [0]),0,1,rng.choice(IMMS)))
                    out.append(ins(JMP|EXIT))
        return out
    defd=set(defined)
    p+=body(rng.randrange(5,40),defd)
    # observe everything
    for r in sorted(defd):
        if r in (0,10): continue
        p.append(ins(ALU64|XOR|X,0,r)); p.append(ins(ALU64|MUL|K,0,0,0,31))
    for s in range(8,129,8):
        p.append(ins(LDX|MEM|DW,1,10,-s)); p.append(ins(ALU64|XOR|X,0,1)); p.append(ins(ALU64|MUL|K,0,0,0,37))
    p.append(ins(JMP|EXIT))
    return p
def dis(p):
    return '\n'.join('%3d: %02x d%d s%d off %d imm %d'%(k,c,d,s,o,i) for k,(c,d,s,o,i) in enumerate(p))
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--driver', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=2000)
    args = ap.parse_args()
    if not os.access(args.driver, os.X_OK):
        print('optfuzz: no driver at %s' % args.driver)
        return 77
    bad = changed = 0
    for t in range(args.seed, args.seed + args.count):
        rng = random.Random(t)
        p = gen(rng)
        q = unpack(subprocess.run([args.driver], input=pack(p), capture_output=True,
                                  check=True).stdout)
        if q != p:
            changed += 1
        for _ in range(4):
            a = [rng.choice([0, 1, M64, 5, 0x80000000, 0xffffffff, rng.getrandbits(64)])
                 for _ in range(5)]
            try:
                ra = run(p, a)
            except Exception as e:  # noqa: BLE001 (an invalid function: both must fail)
                ra = ('exc',)
            try:
                rb = run(q, a)
            except Exception as e:  # noqa: BLE001
                rb = ('exc',)
            if ra != rb:
                bad += 1
                print('MISMATCH seed', t, 'args', a, ra, rb)
                print(dis(p))
                print('--- optimised')
                print(dis(q))
                break
        if bad >= 3:
            break
    print('optfuzz: %d functions (%d changed by the passes), %d mismatches'
          % (args.count, changed, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
