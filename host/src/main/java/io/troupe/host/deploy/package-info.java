/**
 * Hot deployment: the {@code deploy/} folder as the source of truth for plugin bundles.
 *
 * <pre>
 *   deploy/x.jar appears ── stable for one poll? ── valid bundle? ── install, start (level 80)
 *   deploy/x.jar changes ── stable, valid ──────── update in place: PluginDirectory swaps the actors
 *                                                   new revision broken? ── put the last good jar back
 *   deploy/x.jar deleted ───────────────────────── uninstall: its actors stop (no.handler)
 * </pre>
 *
 * <b>Threading:</b> one deployer thread ({@code troupe-deployer}, not a runtime thread: it blocks on
 * files and framework operations) does everything after the initial scan, which runs on the thread
 * that starts the host bundle.
 */
package io.troupe.host.deploy;
