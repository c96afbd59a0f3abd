# bench/twins-sass.sh (device tool, carry .gpu): the machine code of the twins:
# the OpenCL banks PTX (.gpu/ocl_banks.ptx, from a run's compiler account) through
# the toolkit's ptxas against the CUDA twin through nvcc, and the CUDA
# reduction's 64-bit shared loads. Needs the CUDA toolkit (the GPU machine).
set -x
export PATH=/usr/local/cuda/bin:$PATH
REPO=$(pwd); cd /tmp
ptxas -arch=sm_90 $REPO/.gpu/ocl_banks.ptx -o ocl.cubin 2>&1 | tail -2
nvcc -cubin -arch=sm_90 -DLOCAL_SIZE=128 -o cu.cubin $REPO/kernels/banks.cu
nvcc -cubin -arch=sm_90 -DTILE_SIZE=256 -o red.cubin $REPO/kernels/reduction.cu
for f in ocl cu; do cuobjdump -sass $f.cubin > $f.sass; done
cuobjdump -sass red.cubin > red.sass
python3 - <<'PY'
import re
def funcs(path):
    out={}; cur=None
    for line in open(path):
        m=re.search(r'Function : (\w+)',line)
        if m: cur=m.group(1); out[cur]=[]; continue
        if cur and re.search(r'/\*[0-9a-f]{4}\*/',line): out[cur].append(line.strip())
    return out
for f in ('ocl','cu'):
    fs=funcs(f'/tmp/{f}.sass')
    for k in ('bank_struct','bank_soa'):
        ins=fs.get(k,[])
        # the loop: between the last backward branch target and the branch
        bra=[i for i,x in enumerate(ins) if re.search(r'\bBRA\b',x)]
        lds=[i for i,x in enumerate(ins) if 'LDS' in x]
        print(f,k,'instructions',len(ins),'LDS',len(lds))
        # print loop region around LDS
        if lds:
            lo,hi=min(lds),max(lds)
            print('  LDS span', hi-lo+1, 'instructions between first and last LDS')
red=funcs('/tmp/red.sass')
for k,v in red.items():
    print(k, 'LDS', sum('LDS' in x and 'LDS.64' not in x for x in v), 'LDS.64', sum('LDS.64' in x for x in v))
PY
