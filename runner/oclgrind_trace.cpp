// The Oclgrind plugin that records a kernel's memory accesses for warplab's
// tracer (runner/trace.c). Oclgrind calls it for every load and store with the
// work-item that made it; it keeps those of the first work-group of each
// launch and writes them, as text, to the file WARPLAB_TRACE_OUT when the
// launch ends, so the file holds the last launch: the tracer launches the
// traced kernel last, once, after its inputs are made.
//   S <site> <line> <load|store> <global|local>   an access site (a memory
//                                                 instruction and its line)
//   A <site> <local id> <k> <address> <bytes>     work-item <local id>'s k-th
//                                                 execution of the site
//   T <records kept> <records dropped>            the end; dropped > 0 when the
//                                                 WARPLAB_TRACE_MAX limit hit
// C++ because Oclgrind's plugin interface is; everything else is the C side's.
#include <oclgrind/Context.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

// The line of an instruction's debug location (the build has -g), from LLVM's
// C interface, which liboclgrind's LLVM exports; 0 where there is none.
extern "C" unsigned LLVMGetDebugLocLine(void *value);

namespace
{
struct Site {
	unsigned line;
	bool store;
	unsigned space;
};

struct Access {
	size_t site, local_id, k, address, bytes;
};

class TracePlugin : public oclgrind::Plugin
{
public:
	explicit TracePlugin(const oclgrind::Context *context) : oclgrind::Plugin(context)
	{
		const char *max = getenv("WARPLAB_TRACE_MAX");

		m_max = max ? strtoull(max, nullptr, 10) : 4000000;
	}

	void kernelBegin(const oclgrind::KernelInvocation *invocation) override
	{
		m_active = true;
		m_local = invocation->getLocalSize();
		m_site_ids.clear();
		m_sites.clear();
		m_count.clear();
		m_accesses.clear();
		m_dropped = 0;
	}

	void kernelEnd(const oclgrind::KernelInvocation *) override
	{
		m_active = false;
		write();
	}

	void memoryLoad(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, size_t address,
			size_t size) override
	{
		record(memory, item, address, size, false);
	}

	void memoryStore(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, size_t address,
			 size_t size, const uint8_t *) override
	{
		record(memory, item, address, size, true);
	}

	bool isThreadSafe() const override
	{
		return false;
	}

private:
	void record(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, size_t address,
		    size_t size, bool store)
	{
		unsigned space = memory->getAddressSpace();
		oclgrind::Size3 group = item->getWorkGroup()->getGroupID();
		oclgrind::Size3 lid = item->getLocalID();
		const void *inst = item->getCurrentInstruction();

		if (!m_active || group.x || group.y || group.z ||
		    (space != oclgrind::AddrSpaceGlobal && space != oclgrind::AddrSpaceLocal))
			return;
		if (m_accesses.size() >= m_max) {
			m_dropped++;
			return;
		}
		auto found = m_site_ids.find(inst);
		size_t site;

		if (found == m_site_ids.end()) {
			site = m_sites.size();
			m_site_ids[inst] = site;
			m_sites.push_back(Site{ LLVMGetDebugLocLine(const_cast<void *>(inst)), store,
						space == oclgrind::AddrSpaceLocal ? 1u : 0u });
		} else {
			site = found->second;
		}
		size_t linear = lid.x + m_local.x * (lid.y + m_local.y * lid.z);
		size_t k = m_count[std::make_pair(site, linear)]++;

		m_accesses.push_back(Access{ site, linear, k, address, size });
	}

	void write()
	{
		const char *path = getenv("WARPLAB_TRACE_OUT");
		FILE *f = path ? fopen(path, "w") : nullptr;

		if (!f)
			return;
		for (size_t i = 0; i < m_sites.size(); i++)
			fprintf(f, "S %zu %u %s %s\n", i, m_sites[i].line, m_sites[i].store ? "store" : "load",
				m_sites[i].space ? "local" : "global");
		for (const Access &a : m_accesses)
			fprintf(f, "A %zu %zu %zu %zu %zu\n", a.site, a.local_id, a.k, a.address, a.bytes);
		fprintf(f, "T %zu %zu\n", m_accesses.size(), m_dropped);
		fclose(f);
	}

	unsigned long long m_max;
	bool m_active = false;
	oclgrind::Size3 m_local;
	std::map<const void *, size_t> m_site_ids;
	std::vector<Site> m_sites;
	std::map<std::pair<size_t, size_t>, size_t> m_count;
	std::vector<Access> m_accesses;
	size_t m_dropped = 0;
};
} // namespace

extern "C" bool initializePlugins(oclgrind::Context *context)
{
	context->registerPlugin(new TracePlugin(context));
	return true;
}

extern "C" void destroyPlugins(oclgrind::Context *)
{
}
