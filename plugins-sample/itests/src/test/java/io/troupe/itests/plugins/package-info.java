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
 *   TreeActivator             the tree plugin: handler tree.* and factory tree.leaf; every actor is a
 *     TreeNode                  TreeNode that counts, reports its version and carries its count
 *     ├─ TreeRoot               the tenant's handler: spawns a TreeBranch from a lambda and a TreeLeaf
 *     │                         from an anonymous factory (TreeRoot$1); can grow a lambda child or a
 *     │                         timer of TreeTick, a plugin class, which a swap must refuse
 *     ├─ TreeBranch             spawns a TreeLeaf from a method reference and one by factory name
 *     ├─ TreeEphemeral          spawned by TreeRoot for every put, stops on its first message
 *     └─ TreeLeaf
 * </pre>
 *
 * Each class is exactly one class file, except {@code TreeRoot}, whose anonymous factory is a
 * second: {@code PluginJars} copies both. Lambdas need no class file of their own.
 */
package io.troupe.itests.plugins;
