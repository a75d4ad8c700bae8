/**
 * The state store in OSGi: {@link io.troupe.store.osgi.StoreComponent} (Declarative Services) opens the
 * store file of the configuration {@code io.troupe.store} ({@link io.troupe.store.osgi.StoreConfiguration},
 * checked by {@link io.troupe.store.osgi.StoreSettings}) and registers it as the
 * {@link io.troupe.api.state.StateStore} service. Not exported.
 *
 * <p><b>Threading:</b> SCR calls the component one method at a time.
 */
package io.troupe.store.osgi;
