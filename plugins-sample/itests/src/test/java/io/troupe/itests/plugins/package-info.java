/**
 * Plugin code that the hot deployment tests package into bundles while they run (see
 * {@code io.troupe.itests.PluginJars}): each class here is copied, as bytes, into a jar that the
 * test drops into the deploy folder. The probe carries these classes too but never runs them; a
 * generated bundle does not import this package, so it always loads its own copy.
 *
 * <pre>
 *   FailingActivator          a counter revision whose Bundle-Activator throws: the update is rolled back
 *   StateRefusingActivator    a counter revision (handler counter.*) whose actors throw from
 *     └─ StateRefusingActor     importState: the take-over fails and the update is rolled back
 *   HoldingActivator          a plugin whose "hold.wait" blocks its actor until the bundle stops, so
 *     └─ HoldingActor           that requests queue behind it when its jar is deleted
 * </pre>
 *
 * Only top-level classes, no lambdas or inner classes: each class is exactly one class file.
 */
package io.troupe.itests.plugins;
