// The Oclgrind plugin that records a kernel's memory accesses for warplab's
// tracer (runner/trace.c). Oclgrind runs a sample of the launch's
// work-groups — the plugin chooses them when the launch begins, by
// model/sample.c's rule (linked in): groups on a lattice over the grid and
// the groups right after the first — and calls this plugin for
// every load, store and atomic with the work-item that made it, every
// barrier a work-group crosses and every instruction a work-item executes.
// It writes them, as text, to the file WARPLAB_TRACE_OUT, a work-group's
// lines as soon as it completes, so that a trace stopped by its budget
// still holds the groups that ran (the first one first, then from all over
// the grid);
// the file holds the last launch: the tracer launches the traced kernel
// last, once, after its inputs are made.
//   L <dims> <groups x y z> <local x y z>           the launch
//   P <groups>                                     the groups sampled
//   M <address> <bytes>                            a global buffer
//   G <g> <linear group id> <spread> <neighbour>   sampled group g (0 the
//                                                  first): spread 1 for the
//                                                  lattice's ones,
//                                                  neighbour 1 for those
//                                                  right after the first
//   S <site> <line> <load|store|atomic> <global|local>   an access site (a
//                                                  memory instruction, its line)
//   A <g> <site> <local id> <k> <address> <bytes>  in group g, work-item
//                                                  <local id>'s k-th execution
//                                                  of the site
//   N <g> <site> <local id> <count>                the executions of a site by
//                                                  a work-item, where more than
//                                                  were recorded
//   B <g> <barriers>                               barriers the group crossed
//   I <g> <local id> <instructions>                instructions a work-item
//                                                  executed that do work
//                                                  (works() says which)
//   T <records kept> <records dropped>             the end
// A work-item's first WARPLAB_TRACE_PER_ITEM executions of each site are
// recorded (default 256) and all are counted, so a long loop is sampled
// rather than cut; WARPLAB_TRACE_MAX caps the records in all.
//
// What stops the simulator is said on stderr, where the tracer reads why a
// kernel was not traced (runner/trace/untraceable.h): a fatal error while a
// work-group runs (an instruction Oclgrind does not run) comes to log() and
// is written as Oclgrind writes the ones it meets when it makes a kernel (a
// function it does not have); warplab_trace_call_line() finds such a call's
// source line in the program's bitcode for the tracer.
// C++ because Oclgrind's plugin interface is; everything else is the C side's.
#include <oclgrind/Context.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include "sample.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

// The line of an instruction's debug location (the build has -g), from LLVM's
// C interface, which liboclgrind's LLVM exports; 0 where there is none.
extern "C" unsigned LLVMGetDebugLocLine(void *value);
// Its opcode (LLVM-C's LLVMOpcode), the same way.
extern "C" int LLVMGetInstructionOpcode(void *value);
// And what reads a program's bitcode and walks its calls (opaque handles).
extern "C" {
void *LLVMContextCreate(void);
void LLVMContextDispose(void *context);
void *LLVMCreateMemoryBufferWithMemoryRangeCopy(const char *data, size_t len, const char *name);
void LLVMDisposeMemoryBuffer(void *buffer);
int LLVMParseBitcodeInContext2(void *context, void *buffer, void **module);
void LLVMDisposeModule(void *module);
void *LLVMGetNamedFunction(void *module, const char *name);
void *LLVMGetFirstFunction(void *module);
void *LLVMGetNextFunction(void *function);
void *LLVMGetFirstBasicBlock(void *function);
void *LLVMGetNextBasicBlock(void *block);
void *LLVMGetFirstInstruction(void *block);
void *LLVMGetNextInstruction(void *instruction);
void *LLVMIsACallInst(void *value);
void *LLVMGetCalledValue(void *call);
const char *LLVMGetValueName2(void *value, size_t *len);
}

namespace
{
// The groups a launch runs are Oclgrind's own list, private to its
// KernelInvocation: a member pointer taken through an explicit template
// instantiation (which C++ lets name a private member) reaches it, so the
// plugin can choose the sample before the first group runs.
struct WorkGroupsOf {
	typedef std::vector<oclgrind::Size3> oclgrind::KernelInvocation::*type;
	friend type member(WorkGroupsOf);
};
template <typename Tag, typename Tag::type M> struct Reach {
	friend typename Tag::type member(Tag)
	{
		return M;
	}
};
template struct Reach<WorkGroupsOf, &oclgrind::KernelInvocation::m_workGroups>;

enum Op { LOAD, STORE, ATOMIC };

struct Site {
	unsigned line;
	Op op;
	unsigned space;
};

struct Access {
	size_t group, site, local_id, k, address, bytes;
};

class TracePlugin : public oclgrind::Plugin
{
public:
	explicit TracePlugin(const oclgrind::Context *context) : oclgrind::Plugin(context)
	{
		const char *max = getenv("WARPLAB_TRACE_MAX");
		const char *per = getenv("WARPLAB_TRACE_PER_ITEM");

		m_max = max ? strtoull(max, nullptr, 10) : 4000000;
		m_per_item = per ? strtoull(per, nullptr, 10) : 256;
	}

	void kernelBegin(const oclgrind::KernelInvocation *invocation) override
	{
		size_t items;

		m_active = true;
		m_local = invocation->getLocalSize();
		m_groups = invocation->getNumGroups();
		m_dims = invocation->getWorkDim();
		m_site_ids.clear();
		m_sites.clear();
		m_count.clear();
		m_accesses.clear();
		m_dropped = 0;
		m_written_sites = 0;
		m_kept = 0;
		choose(const_cast<oclgrind::KernelInvocation *>(invocation));
		items = m_local.x * m_local.y * m_local.z;
		m_barriers.assign(m_sample.size(), 0);
		m_instructions.assign(m_sample.size() * items, 0);
		begin_file();
	}

	void kernelEnd(const oclgrind::KernelInvocation *) override
	{
		m_active = false;
		append("T " + std::to_string(m_kept) + " " + std::to_string(m_dropped) + "\n");
		if (m_fd >= 0)
			close(m_fd);
		m_fd = -1;
	}

	void workGroupComplete(const oclgrind::WorkGroup *group) override
	{
		int g = m_active ? which(group->getGroupID()) : -1;

		if (g >= 0)
			flush_group((size_t)g);
	}

	void memoryAllocated(const oclgrind::Memory *memory, size_t address, size_t size, cl_mem_flags,
			     const uint8_t *) override
	{
		if (memory->getAddressSpace() == oclgrind::AddrSpaceGlobal)
			m_buffers[address] = size;
	}

	void memoryDeallocated(const oclgrind::Memory *memory, size_t address) override
	{
		if (memory->getAddressSpace() == oclgrind::AddrSpaceGlobal)
			m_buffers.erase(address);
	}

	void memoryLoad(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, size_t address,
			size_t size) override
	{
		record(memory, item, address, size, LOAD);
	}

	void memoryStore(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, size_t address,
			 size_t size, const uint8_t *) override
	{
		record(memory, item, address, size, STORE);
	}

	void memoryAtomicLoad(const oclgrind::Memory *memory, const oclgrind::WorkItem *item,
			      oclgrind::AtomicOp, size_t address, size_t size) override
	{
		record(memory, item, address, size, ATOMIC);
	}

	void workGroupBarrier(const oclgrind::WorkGroup *group, uint32_t) override
	{
		int g = m_active ? which(group->getGroupID()) : -1;

		if (g >= 0)
			m_barriers[(size_t)g]++;
	}

	void instructionExecuted(const oclgrind::WorkItem *item, const llvm::Instruction *instruction,
				 const oclgrind::TypedValue &) override
	{
		int g = m_active ? which(item->getWorkGroup()->getGroupID()) : -1;
		oclgrind::Size3 lid = item->getLocalID();

		if (g >= 0 && works(LLVMGetInstructionOpcode((void *)instruction)))
			m_instructions[(size_t)g * m_local.x * m_local.y * m_local.z + lid.x +
				       m_local.x * (lid.y + m_local.y * lid.z)]++;
	}

	// A fatal error ends the work-group that met it, and the launch goes
	// on without it: said on stderr, so that the tracer refuses the trace
	// and says why rather than count what is left.
	void log(oclgrind::MessageType type, const char *message) override
	{
		if (type == oclgrind::ERROR && strncmp(message, "OCLGRIND FATAL ERROR", 20) == 0)
			fprintf(stderr, "\n%s\n", message);
	}

	bool isThreadSafe() const override
	{
		return false;
	}

private:
	// The sample (model/sample.h's rule: groups on a lattice over the grid
	// and the first's neighbours); Oclgrind runs these and no others.
	void choose(oclgrind::KernelInvocation *invocation)
	{
		const long long grid[3] = { (long long)m_groups.x, (long long)m_groups.y, (long long)m_groups.z };
		struct wl_sample sample;
		std::vector<size_t> spread, order;

		wl_sample_groups(grid, &sample);
		m_sample.clear();
		m_spread.clear();
		m_neighbour.clear();
		for (int k = 0; k < sample.count; k++) {
			m_sample.push_back((size_t)sample.linear[k]);
			m_neighbour.push_back(sample.neighbour[k]);
			if (sample.weight[k] > 0)
				spread.push_back((size_t)sample.linear[k]);
		}
		m_spread = spread;
		// Run the lattice's groups first, in bit-reversed order of their
		// place (0, 4, 2, 6, 1, ...: each next one halves the gaps), then
		// the others, the launch's last first: a trace cut short keeps
		// groups from all over.
		size_t span = 1;
		while (span < spread.size())
			span <<= 1;
		for (size_t i = 0; i < span; i++) {
			size_t r = 0;
			for (size_t b = 1, v = i; b < span; b <<= 1, v >>= 1)
				r = (r << 1) | (v & 1);
			if (r < spread.size())
				order.push_back(spread[r]);
		}
		for (auto l = m_sample.rbegin(); l != m_sample.rend(); ++l)
			if (std::find(order.begin(), order.end(), *l) == order.end())
				order.push_back(*l);
		std::vector<oclgrind::Size3> groups;
		for (size_t l : order)
			groups.push_back(oclgrind::Size3(l % m_groups.x, (l / m_groups.x) % m_groups.y,
							 l / (m_groups.x * m_groups.y)));
		invocation->*member(WorkGroupsOf()) = groups;
	}

	// Whether an instruction of this LLVM opcode does work a GPU issues:
	// arithmetic, comparisons, selects, conversions of values, memory
	// accesses. Not counted: what a GPU's compiler folds away or does
	// for nothing — branches and their phi nodes (unrolled, predicated),
	// address arithmetic (getelementptr and the integer widenings that
	// feed it: addressing modes), calls (the work-item functions read
	// special registers; barriers are counted on their own).
	static bool works(int opcode)
	{
		switch (opcode) {
		case 1: case 2: case 3: case 4:	// ret, br, switch, indirectbr
		case 29:			// getelementptr
		case 30: case 31: case 32:	// trunc, zext, sext
		case 39: case 40: case 41: case 60:	// ptrtoint, inttoptr, bitcast, addrspacecast
		case 44: case 45:		// phi, call
			return false;
		}
		return true;
	}

	// The group's place in the sample, or -1.
	int which(const oclgrind::Size3 &group) const
	{
		size_t l = group.x + m_groups.x * (group.y + m_groups.y * group.z);
		auto at = std::lower_bound(m_sample.begin(), m_sample.end(), l);

		return at != m_sample.end() && *at == l ? (int)(at - m_sample.begin()) : -1;
	}

	void record(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, size_t address,
		    size_t size, Op op)
	{
		unsigned space = memory->getAddressSpace();
		int g = m_active ? which(item->getWorkGroup()->getGroupID()) : -1;
		oclgrind::Size3 lid = item->getLocalID();
		const void *inst = item->getCurrentInstruction();

		if (g < 0 || (space != oclgrind::AddrSpaceGlobal && space != oclgrind::AddrSpaceLocal))
			return;
		auto found = m_site_ids.find(inst);
		size_t site;

		if (found == m_site_ids.end()) {
			site = m_sites.size();
			m_site_ids[inst] = site;
			m_sites.push_back(Site{ LLVMGetDebugLocLine(const_cast<void *>(inst)), op,
						space == oclgrind::AddrSpaceLocal ? 1u : 0u });
		} else {
			site = found->second;
		}
		size_t linear = lid.x + m_local.x * (lid.y + m_local.y * lid.z);
		size_t k = m_count[std::make_tuple((size_t)g, site, linear)]++;

		if (k >= m_per_item)
			return;
		if (m_accesses.size() >= m_max) {
			m_dropped++;
			return;
		}
		m_accesses.push_back(Access{ (size_t)g, site, linear, k, address, size });
	}

	// Write text in one call (a kill between calls loses whole lines only).
	void append(const std::string &text)
	{
		size_t done = 0;

		while (m_fd >= 0 && done < text.size()) {
			ssize_t n = ::write(m_fd, text.data() + done, text.size() - done);

			if (n <= 0)
				return;
			done += (size_t)n;
		}
	}

	void begin_file()
	{
		const char *path = getenv("WARPLAB_TRACE_OUT");
		char line[160];
		std::string head;

		m_fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600) : -1;
		snprintf(line, sizeof(line), "L %zu %zu %zu %zu %zu %zu %zu\nP %zu\n", m_dims, m_groups.x, m_groups.y,
			 m_groups.z, m_local.x, m_local.y, m_local.z, m_sample.size());
		head = line;
		for (const auto &b : m_buffers) {
			snprintf(line, sizeof(line), "M %zu %zu\n", b.first, b.second);
			head += line;
		}
		append(head);
	}

	// Sampled group g completed: its lines, after any site found since.
	void flush_group(size_t g)
	{
		static const char *const ops[] = { "load", "store", "atomic" };
		size_t items = m_local.x * m_local.y * m_local.z;
		char line[200];
		std::string block;

		for (; m_written_sites < m_sites.size(); m_written_sites++) {
			const Site &st = m_sites[m_written_sites];

			snprintf(line, sizeof(line), "S %zu %u %s %s\n", m_written_sites, st.line, ops[st.op],
				 st.space ? "local" : "global");
			block += line;
		}
		for (const Access &a : m_accesses) {
			snprintf(line, sizeof(line), "A %zu %zu %zu %zu %zu %zu\n", a.group, a.site, a.local_id, a.k,
				 a.address, a.bytes);
			block += line;
		}
		m_kept += m_accesses.size();
		m_accesses.clear();
		for (auto c = m_count.begin(); c != m_count.end();) {
			if (std::get<0>(c->first) != g) {
				++c;
				continue;
			}
			if (c->second > m_per_item) {
				snprintf(line, sizeof(line), "N %zu %zu %zu %zu\n", g, std::get<1>(c->first),
					 std::get<2>(c->first), c->second);
				block += line;
			}
			c = m_count.erase(c);
		}
		for (size_t i = 0; i < items; i++)
			if (m_instructions[g * items + i]) {
				snprintf(line, sizeof(line), "I %zu %zu %zu\n", g, i, m_instructions[g * items + i]);
				block += line;
			}
		snprintf(line, sizeof(line), "B %zu %zu\nG %zu %zu %d %d\n", g, m_barriers[g], g, m_sample[g],
			 std::binary_search(m_spread.begin(), m_spread.end(), m_sample[g]) ? 1 : 0, m_neighbour[g]);
		block += line;
		append(block);
	}

	unsigned long long m_max, m_per_item;
	bool m_active = false;
	oclgrind::Size3 m_local, m_groups;
	size_t m_dims = 1;
	std::map<size_t, size_t> m_buffers;
	std::map<const void *, size_t> m_site_ids;
	std::vector<Site> m_sites;
	std::map<std::tuple<size_t, size_t, size_t>, size_t> m_count;
	std::vector<Access> m_accesses;
	std::vector<size_t> m_sample, m_spread;	// linear group ids, sorted
	std::vector<int> m_neighbour;		// per sampled group: one of the first's neighbours
	std::vector<size_t> m_barriers;		// per sampled group
	std::vector<size_t> m_instructions;	// per sampled group and work-item
	size_t m_dropped = 0, m_kept = 0, m_written_sites = 0;
	int m_fd = -1;
};
} // namespace

namespace
{
// A function's name as Oclgrind says it: an OpenCL built-in's base name
// (_Z8popcountj is popcount), any other as it is.
std::string said_name(const char *name, size_t len)
{
	std::string full(name, len);

	if (full.compare(0, 2, "_Z") != 0)
		return full;
	size_t digits = full.find_first_not_of("0123456789", 2);
	size_t n = strtoul(full.c_str() + 2, nullptr, 10);

	return digits == std::string::npos ? full : full.substr(digits, n);
}

// The line of the first call of callee in function, or 0.
unsigned call_line(void *function, const char *callee)
{
	for (void *b = LLVMGetFirstBasicBlock(function); b; b = LLVMGetNextBasicBlock(b))
		for (void *i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
			void *called = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : nullptr;
			size_t len = 0;
			const char *name = called ? LLVMGetValueName2(called, &len) : nullptr;

			if (name && said_name(name, len) == callee && LLVMGetDebugLocLine(i))
				return LLVMGetDebugLocLine(i);
		}
	return 0;
}
} // namespace

// The source line of the first call of callee (named as Oclgrind names it
// when it cannot run it) in the program whose bitcode (Oclgrind's program
// binary) is bits[0..len), in kernel first, then in any function; 0 where
// the program does not define kernel, has no such call, or no line for it.
// Called by the tracer (dlsym) after Oclgrind refused to make the kernel.
extern "C" unsigned warplab_trace_call_line(const void *bits, size_t len, const char *kernel, const char *callee)
{
	void *context = LLVMContextCreate(), *module = nullptr, *function;
	void *buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)bits, len, "program");
	unsigned line = 0;

	if (buffer && LLVMParseBitcodeInContext2(context, buffer, &module) == 0 && module &&
	    (function = LLVMGetNamedFunction(module, kernel)) && LLVMGetFirstBasicBlock(function)) {
		line = call_line(function, callee);
		for (void *f = LLVMGetFirstFunction(module); !line && f; f = LLVMGetNextFunction(f))
			line = call_line(f, callee);
	}
	if (module)
		LLVMDisposeModule(module);
	if (buffer)
		LLVMDisposeMemoryBuffer(buffer);
	LLVMContextDispose(context);
	return line;
}

extern "C" bool initializePlugins(oclgrind::Context *context)
{
	context->registerPlugin(new TracePlugin(context));
	return true;
}

extern "C" void destroyPlugins(oclgrind::Context *)
{
}
