/**
 * The counter sample plugin: a stateful handler serving several message names from one actor per
 * tenant, whose totals survive a hot swap of the plugin.
 *
 * <pre>
 *   CounterHandler  &#64;Handler({"counter.add", "counter.get", "counter.version"})
 *        |  create()                       (one CounterActor per tenant, so one total per tenant)
 *        v
 *   CounterActor --- Counter               parses "+12" / "-3", adds with overflow checks
 *        |
 *        +-- exportState / importState --- CounterState: the total as a Long (format 1, written by
 *                                          1.x) or {"total": Long, "format": 2} (written by 2.x);
 *                                          both read by every version, anything else refused
 *
 *   counter.add     " -3 "  --&gt;  "39"      the new total, or bad.request (total unchanged)
 *   counter.get     any     --&gt;  "39"
 *   counter.version any     --&gt;  "1.0.0"   this bundle's Bundle-Version, read when DS activates it
 * </pre>
 *
 * <h2>Two versions from one source</h2>
 * This source is built twice with the same Bundle-SymbolicName, {@code io.troupe.sample.counter}: as
 * 1.0.0 by {@code plugins-sample/counter} and as 2.0.0 by {@code plugins-sample/counter-v2}, which
 * compiles these very files. The two jars differ only in their Bundle-Version, and what follows from
 * it at runtime: the version {@code counter.version} answers and the state format the actors export.
 * One source keeps the sample honest (there is no second copy to drift) while a swap in either
 * direction still crosses a real format change.
 *
 * <p>Nothing here is exported: the runtime finds the handler through the OSGi service registry. The
 * total lives in the actor: updating the bundle in place carries it over to the new revision's actor;
 * stopping or uninstalling the bundle loses it, and it starts again at 0.
 */
package io.troupe.sample.counter;
