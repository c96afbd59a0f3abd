// warplab-cuda-ir: a CUDA kernel's LLVM IR, as clang compiles it for NVPTX
// (cuda_oclgrind.c runs clang with kernels/cuda_oclgrind.h), made into a
// program the Oclgrind simulator runs, so that a CUDA kernel is traced by
// the same plugin as an OpenCL one.
//
//   warplab-cuda-ir IN.bc OUT.bc [DYNAMIC_SHARED_BYTES]
//
// What differs between the two and what is done about it:
// - CUDA's pointers are generic (address space 0, which is Oclgrind's
//   private memory): a kernel's pointer parameters become global (1), and
//   LLVM's InferAddressSpaces, with NVPTX's rules, carries the spaces to every
//   load and store; __device__ functions are inlined first so that it sees
//   where each pointer comes from.
// - Shared memory (3) is Oclgrind's local memory, which it allocates per
//   kernel for variables named after the kernel: each kernel gets its own
//   copy; extern __shared__ (dynamic shared memory) gets the launch's bytes.
// - __constant__ variables are __device__ ones (kernels/cuda_oclgrind.h):
//   global memory, as an OpenCL __constant argument is traced.
// - A float4 is a struct to clang, read and written field by field or
//   copied with llvm.memcpy; NVIDIA's compiler makes one 16-byte access of
//   it, and so do the copies expanded here and LLVM's LoadStoreVectorizer
//   (each joined access keeps its source line).
// - Kernels take OpenCL's calling convention, argument metadata and the
//   SPIR triple.
// A kernel the simulator cannot run as it is (inline PTX, warp intrinsics,
// atomics instructions, a pointer whose space cannot be told) is refused
// with the construct and its line: exit 2 and one line on stderr. Other
// failures exit 1.
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar.h>
#include <llvm/Transforms/Vectorize/LoadStoreVectorizer.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "untraceable.h"

using namespace llvm;

namespace {

enum Space { Generic = 0, Global = 1, Shared = 3 };

// A refusal: the construct and where it is.
struct Refused {
	std::string why;
};

std::string line_of(const Instruction &I)
{
	if (const DebugLoc &dl = I.getDebugLoc())
		return " at line " + std::to_string(dl.getLine());
	return "";
}

// An intrinsic clang made of plain code, named for what it computes and
// where it came from, as an OpenCL kernel's is (untraceable.h).
std::string intrinsic_of(StringRef name, const Instruction &I)
{
	char phrase[384];
	const DebugLoc &dl = I.getDebugLoc();

	wl_intrinsic_phrase(name.str().c_str(), dl ? dl.getLine() : 0, phrase, sizeof(phrase));
	return phrase;
}

// The intrinsics Oclgrind 21.10 runs (WorkItemBuiltins.cpp), by prefix.
bool simulator_runs(StringRef name)
{
	static const char *const runs[] = { "llvm.bswap.", "llvm.dbg.", "llvm.fabs.f", "llvm.lifetime.",
					    "llvm.memcpy", "llvm.memmove", "llvm.memset", "llvm.fmuladd",
					    "llvm.smax", "llvm.smin", "llvm.umax", "llvm.umin", "llvm.trap" };

	for (const char *r : runs)
		if (name.startswith(r))
			return true;
	return false;
}

// What a CUDA programmer calls an NVVM intrinsic.
std::string nvvm_words(StringRef name)
{
	if (name.contains("shfl"))
		return "a warp shuffle (__shfl_sync)";
	if (name.contains("vote"))
		return "a warp vote (__ballot_sync, __any_sync, __all_sync)";
	if (name.contains("match"))
		return "a warp match (__match_any_sync)";
	if (name.contains("read.ptx.sreg"))
		return "a PTX special register (" + name.drop_front(strlen("llvm.nvvm.read.ptx.sreg.")).str() + ")";
	if (name.contains("atomic"))
		return "an NVVM atomic (" + name.str() + ")";
	return "the NVVM intrinsic " + name.str();
}

// The first construct of M the simulator cannot run, if any.
bool refuse_constructs(Module &M, Refused &r)
{
	for (Function &F : M)
		for (BasicBlock &B : F)
			for (Instruction &I : B) {
				if (auto *call = dyn_cast<CallBase>(&I)) {
					if (call->isInlineAsm()) {
						r.why = "inline PTX (asm)" + line_of(I);
						return true;
					}
					Function *callee = call->getCalledFunction();
					if (!callee) {
						r.why = "a call through a function pointer" + line_of(I);
						return true;
					}
					StringRef name = callee->getName();
					if (name.startswith("__wl_unsupported_")) {
						r.why = name.drop_front(strlen("__wl_unsupported_")).str() +
							" (a warp-level function)" + line_of(I);
						return true;
					}
					if (name.startswith("llvm.nvvm.")) {
						r.why = nvvm_words(name) + line_of(I);
						return true;
					}
					if (name.startswith("llvm.") && !simulator_runs(name) &&
					    !name.startswith("llvm.assume") &&
					    !name.startswith("llvm.experimental.noalias")) {
						r.why = intrinsic_of(name, I);
						return true;
					}
				}
				if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) || isa<FenceInst>(I)) {
					r.why = std::string("an atomic instruction (") + I.getOpcodeName() + ")" + line_of(I) +
						", which the simulator does not run";
					return true;
				}
			}
	return false;
}

std::set<Function *> kernels_of(Module &M)
{
	std::set<Function *> out;
	NamedMDNode *na = M.getNamedMetadata("nvvm.annotations");

	for (unsigned i = 0; na && i < na->getNumOperands(); i++) {
		MDNode *node = na->getOperand(i);
		if (node->getNumOperands() < 2)
			continue;
		auto *what = dyn_cast<MDString>(node->getOperand(1));
		auto *fn = dyn_cast_or_null<ValueAsMetadata>(node->getOperand(0).get());
		if (what && what->getString() == "kernel" && fn)
			if (auto *f = dyn_cast<Function>(fn->getValue()))
				out.insert(f);
	}
	return out;
}

// __device__ functions inlined into the kernels, so that every pointer's
// space is seen where it is made.
void inline_device_functions(Module &M, const std::set<Function *> &kernels)
{
	legacy::PassManager pm;

	// Internal, so that once inlined nothing is left of them (a function
	// left standing would be checked as a kernel is).
	for (Function &F : M)
		if (!F.isDeclaration() && !kernels.count(&F)) {
			F.setLinkage(GlobalValue::InternalLinkage);
			F.removeFnAttr(Attribute::NoInline);
			F.removeFnAttr(Attribute::OptimizeNone);
			F.addFnAttr(Attribute::AlwaysInline);
		}
	pm.add(createAlwaysInlinerLegacyPass());
	pm.add(createGlobalDCEPass());
	pm.run(M);
}

// C with gv replaced by to (same type), for constants built on gv.
Constant *remap(Constant *c, GlobalVariable *gv, Constant *to)
{
	if (c == gv)
		return to;
	auto *ce = dyn_cast<ConstantExpr>(c);
	if (!ce)
		return c;
	SmallVector<Constant *, 4> ops;
	bool changed = false;
	for (Use &u : ce->operands()) {
		Constant *o = remap(cast<Constant>(u.get()), gv, to);
		changed |= o != u.get();
		ops.push_back(o);
	}
	return changed ? ce->getWithOperands(ops) : c;
}

bool uses_global(Constant *c, GlobalVariable *gv)
{
	if (c == gv)
		return true;
	if (auto *ce = dyn_cast<ConstantExpr>(c))
		for (Use &u : ce->operands())
			if (uses_global(cast<Constant>(u.get()), gv))
				return true;
	return false;
}

// In F's instructions, gv replaced by to.
bool replace_in(Function &F, GlobalVariable *gv, Constant *to)
{
	bool used = false;

	for (BasicBlock &B : F)
		for (Instruction &I : B)
			for (Use &u : I.operands())
				if (auto *c = dyn_cast<Constant>(u.get()))
					if (uses_global(c, gv)) {
						u.set(remap(c, gv, to));
						used = true;
					}
	return used;
}

// Each kernel its own copy of the shared memory it uses, named after it as
// Oclgrind wants; extern __shared__ sized to dynamic bytes.
void shared_per_kernel(Module &M, const std::set<Function *> &kernels, uint64_t dynamic)
{
	std::vector<GlobalVariable *> shared;

	for (GlobalVariable &gv : M.globals())
		if (gv.getAddressSpace() == Shared)
			shared.push_back(&gv);
	for (GlobalVariable *gv : shared) {
		Type *type = gv->getValueType();
		if (!gv->hasInitializer()) {
			Type *elem = type->isArrayTy() ? type->getArrayElementType() : type;
			uint64_t size = M.getDataLayout().getTypeAllocSize(elem);
			type = ArrayType::get(elem, std::max<uint64_t>(1, dynamic / (size ? size : 1)));
		}
		for (Function *k : kernels) {
			auto *copy = new GlobalVariable(M, type, false, GlobalValue::InternalLinkage, UndefValue::get(type),
							k->getName() + "." + gv->getName(), nullptr,
							GlobalValue::NotThreadLocal, Shared);
			copy->setAlignment(gv->getAlign().getValueOr(Align(16)));
			if (!replace_in(*k, gv, ConstantExpr::getBitCast(copy, gv->getType())))
				copy->eraseFromParent();
		}
		if (gv->use_empty())
			gv->eraseFromParent();
	}
}

// The parameters' metadata OpenCL's clang writes and Oclgrind reads for
// clSetKernelArg: each one's address space, type, qualifiers and name.
void arg_metadata(Function *k)
{
	LLVMContext &ctx = k->getContext();
	SmallVector<Metadata *, 8> space, access, type, qual, name;

	for (Argument &a : k->args()) {
		auto *p = dyn_cast<PointerType>(a.getType());
		std::string text;
		raw_string_ostream os(text);

		a.getType()->print(os);
		space.push_back(ConstantAsMetadata::get(
			ConstantInt::get(Type::getInt32Ty(ctx), p ? p->getAddressSpace() : 0)));
		access.push_back(MDString::get(ctx, "none"));
		type.push_back(MDString::get(ctx, os.str()));
		qual.push_back(MDString::get(ctx, ""));
		name.push_back(MDString::get(ctx, a.getName()));
	}
	k->setMetadata("kernel_arg_addr_space", MDNode::get(ctx, space));
	k->setMetadata("kernel_arg_access_qual", MDNode::get(ctx, access));
	k->setMetadata("kernel_arg_type", MDNode::get(ctx, type));
	k->setMetadata("kernel_arg_base_type", MDNode::get(ctx, type));
	k->setMetadata("kernel_arg_type_qual", MDNode::get(ctx, qual));
	k->setMetadata("kernel_arg_name", MDNode::get(ctx, name));
}

// Kernel k with its generic pointer parameters global, in OpenCL's calling
// convention; returns the new function.
Function *kernel_to_opencl(Function *k)
{
	FunctionType *ft = k->getFunctionType();
	SmallVector<Type *, 8> params;

	for (Type *t : ft->params()) {
		auto *p = dyn_cast<PointerType>(t);
		params.push_back(p && p->getAddressSpace() == Generic ? PointerType::getWithSamePointeeType(p, Global)
								       : t);
	}
	auto *nft = FunctionType::get(ft->getReturnType(), params, false);
	Function *nk = Function::Create(nft, k->getLinkage(), k->getAddressSpace(), "", k->getParent());
	nk->takeName(k);
	nk->copyAttributesFrom(k);
	nk->copyMetadata(k, 0);
	nk->setCallingConv(CallingConv::SPIR_KERNEL);
	nk->setLinkage(GlobalValue::ExternalLinkage);
	nk->getBasicBlockList().splice(nk->begin(), k->getBasicBlockList());
	Instruction *at = &*nk->getEntryBlock().getFirstInsertionPt();
	auto na = nk->arg_begin();
	for (Argument &a : k->args()) {
		na->takeName(&a);
		if (na->getType() != a.getType())
			a.replaceAllUsesWith(new AddrSpaceCastInst(&*na, a.getType(), na->getName() + ".generic", at));
		else
			a.replaceAllUsesWith(&*na);
		++na;
	}
	arg_metadata(nk);
	return nk;
}

// A copy of a few bytes (a struct assigned: clang says llvm.memcpy) as the
// loads and stores a GPU compiler makes of it, each as wide as the
// alignment allows up to 16 bytes, so that the trace sees float4's 16-byte
// access as one.
void expand_small_copies(Function &F)
{
	for (Instruction &I : make_early_inc_range(instructions(F))) {
		auto *copy = dyn_cast<MemTransferInst>(&I);
		auto *len = copy ? dyn_cast<ConstantInt>(copy->getLength()) : nullptr;
		if (!len || len->getZExtValue() > 256 || copy->isVolatile())
			continue;
		uint64_t bytes = len->getZExtValue();
		uint64_t align = std::min(copy->getDestAlign().valueOrOne().value(),
					  copy->getSourceAlign().valueOrOne().value());
		IRBuilder<> b(copy);
		LLVMContext &ctx = F.getContext();
		b.SetCurrentDebugLocation(copy->getDebugLoc());
		Value *dst = copy->getRawDest(), *src = copy->getRawSource();
		for (uint64_t at = 0; at < bytes;) {
			uint64_t chunk = 16;
			while (chunk > 1 && (chunk > align || (bytes - at) < chunk || at % chunk))
				chunk /= 2;
			Type *t = chunk >= 8 ? (Type *)FixedVectorType::get(Type::getInt32Ty(ctx), chunk / 4)
					     : (Type *)Type::getIntNTy(ctx, chunk * 8);
			Value *from = b.CreateBitCast(b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), src, at),
						      t->getPointerTo(src->getType()->getPointerAddressSpace()));
			Value *to = b.CreateBitCast(b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), dst, at),
						    t->getPointerTo(dst->getType()->getPointerAddressSpace()));
			b.CreateAlignedStore(b.CreateAlignedLoad(t, from, Align(chunk)), to, Align(chunk));
			at += chunk;
		}
		copy->eraseFromParent();
	}
}

// Each load's and store's source line by the address it uses (the first
// of an address's loads, and of its stores).
std::map<std::pair<const Value *, bool>, DebugLoc> access_lines(Function &F)
{
	std::map<std::pair<const Value *, bool>, DebugLoc> lines;

	for (Instruction &I : instructions(F))
		if (const Value *ptr = getLoadStorePointerOperand(&I))
			if (I.getDebugLoc())
				lines.emplace(std::make_pair(ptr->stripPointerCasts(), isa<StoreInst>(I)), I.getDebugLoc());
	return lines;
}

// The line of a load or store the joining made (it keeps no line, or the
// last one's): the line of the first access it joins, whose address it
// uses.
void restore_lines(Function &F, const std::map<std::pair<const Value *, bool>, DebugLoc> &lines)
{
	for (Instruction &I : instructions(F)) {
		const Value *ptr = getLoadStorePointerOperand(&I);
		Type *t = ptr ? getLoadStoreType(&I) : nullptr;
		if (!ptr || (I.getDebugLoc() && !t->isVectorTy()))
			continue;
		auto at = lines.find(std::make_pair(ptr->stripPointerCasts(), isa<StoreInst>(I)));
		if (at != lines.end())
			I.setDebugLoc(at->second);
	}
}

// Every pointer's space carried to its loads and stores by NVPTX's rules,
// then neighbouring loads and stores joined as NVPTX joins them (a float4
// read field by field is one 16-byte load on the GPU).
void infer_spaces(Module &M)
{
	std::string error;
	const Target *t;
	TargetMachine *tm = nullptr;
	legacy::FunctionPassManager fpm(&M), join(&M);

	LLVMInitializeNVPTXTargetInfo();
	LLVMInitializeNVPTXTarget();
	LLVMInitializeNVPTXTargetMC();
	t = TargetRegistry::lookupTarget(M.getTargetTriple(), error);
	if (t)
		tm = t->createTargetMachine(M.getTargetTriple(), "sm_70", "", TargetOptions(), None);
	if (tm) {
		fpm.add(createTargetTransformInfoWrapperPass(tm->getTargetIRAnalysis()));
		join.add(createTargetTransformInfoWrapperPass(tm->getTargetIRAnalysis()));
	}
	fpm.add(createInferAddressSpacesPass(Generic));
	fpm.add(createInstructionCombiningPass());
	join.add(createLoadStoreVectorizerPass());
	fpm.doInitialization();
	join.doInitialization();
	for (Function &F : M)
		if (!F.isDeclaration()) {
			fpm.run(F);
			expand_small_copies(F);
			std::map<std::pair<const Value *, bool>, DebugLoc> lines = access_lines(F);
			join.run(F);
			restore_lines(F, lines);
		}
	fpm.doFinalization();
	join.doFinalization();
	delete tm;
}

// A memory access through a generic pointer that is not the work-item's
// own (an alloca, or a private global Oclgrind gives each work-item): its
// space could not be told.
bool refuse_generic(Module &M, Refused &r)
{
	for (Function &F : M)
		for (BasicBlock &B : F)
			for (Instruction &I : B) {
				Value *ptr = getLoadStorePointerOperand(&I);
				if (auto *mi = dyn_cast<MemIntrinsic>(&I))
					ptr = mi->getRawDest();
				if (!ptr || ptr->getType()->getPointerAddressSpace() != Generic)
					continue;
				SmallVector<const Value *, 4> objects;
				getUnderlyingObjects(ptr, objects, nullptr, 0);
				// The work-item's own: an array of its own, or one
				// clang made a private constant of its initializer.
				for (const Value *o : objects)
					if (!isa<AllocaInst>(o) && !isa<GlobalVariable>(o)) {
						r.why = "a pointer whose memory (global, shared or local) cannot be told" +
							line_of(I);
						return true;
					}
			}
	return false;
}

void set_binary_type_executable(Module &M)
{
	LLVMContext &ctx = M.getContext();
	NamedMDNode *md = M.getOrInsertNamedMetadata("oclgrind_binary_type");

	md->clearOperands();
	md->addOperand(MDNode::get(ctx, ConstantAsMetadata::get(ConstantInt::get(
						Type::getInt32Ty(ctx), 0x4 /* CL_PROGRAM_BINARY_TYPE_EXECUTABLE */))));
}

int convert(Module &M, uint64_t dynamic, Refused &r)
{
	std::set<Function *> kernels = kernels_of(M);

	if (kernels.empty()) {
		r.why = "no __global__ kernel";
		return 2;
	}
	if (refuse_constructs(M, r))
		return 2;
	// What keeps __device__ and __constant__ variables from the linker's
	// hands: nothing is linked here, and it would hold the old variables.
	for (const char *keep : { "llvm.used", "llvm.compiler.used" })
		if (GlobalVariable *gv = M.getGlobalVariable(keep))
			gv->eraseFromParent();
	inline_device_functions(M, kernels);
	shared_per_kernel(M, kernels, dynamic);
	if (NamedMDNode *na = M.getNamedMetadata("nvvm.annotations"))
		M.eraseNamedMetadata(na);
	for (Function *k : kernels) {
		kernel_to_opencl(k);
		k->eraseFromParent();
	}
	infer_spaces(M);
	if (refuse_generic(M, r) || refuse_constructs(M, r))
		return 2;
	M.setTargetTriple("spir64-unknown-unknown");
	set_binary_type_executable(M);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	LLVMContext ctx;
	SMDiagnostic diag;
	Refused r;
	uint64_t dynamic = argc > 3 ? strtoull(argv[3], nullptr, 10) : 0;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: warplab-cuda-ir IN.bc OUT.bc [DYNAMIC_SHARED_BYTES]\n");
		return 1;
	}
	std::unique_ptr<Module> M = parseIRFile(argv[1], diag, ctx);
	if (!M) {
		fprintf(stderr, "warplab-cuda-ir: cannot read %s: %s\n", argv[1], diag.getMessage().str().c_str());
		return 1;
	}
	int rc = convert(*M, dynamic, r);
	if (rc != 0) {
		fprintf(stderr, "%s\n", r.why.c_str());
		return rc;
	}
	std::string problems;
	raw_string_ostream out(problems);
	if (verifyModule(*M, &out)) {
		fprintf(stderr, "warplab-cuda-ir: the converted module is not valid: %.300s\n", out.str().c_str());
		return 1;
	}
	std::error_code ec;
	raw_fd_ostream file(argv[2], ec, sys::fs::OF_None);
	if (ec) {
		fprintf(stderr, "warplab-cuda-ir: cannot write %s: %s\n", argv[2], ec.message().c_str());
		return 1;
	}
	WriteBitcodeToFile(*M, file);
	return 0;
}
