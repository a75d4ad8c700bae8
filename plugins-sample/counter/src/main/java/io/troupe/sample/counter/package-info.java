/**
 * The counter sample plugin: a stateful handler serving several message names from one actor per
 * tenant.
 *
 * <pre>
 *   CounterHandler  &#64;Handler({"counter.add", "counter.get", "counter.version"})
 *        |  create()                       (one CounterActor per tenant, so one total per tenant)
 *        v
 *   CounterActor --- Counter               parses "+12" / "-3", adds with overflow checks
 *
 *   counter.add     " -3 "  --&gt;  "39"      the new total, or bad.request (total unchanged)
 *   counter.get     any     --&gt;  "39"
 *   counter.version any     --&gt;  "1.0.0"   this bundle's Bundle-Version, read when DS activates it
 * </pre>
 *
 * Nothing here is exported: the runtime finds the handler through the OSGi service registry. The
 * total lives in the actor, so it starts again at 0 when the bundle is stopped, updated or
 * uninstalled.
 */
package io.troupe.sample.counter;
