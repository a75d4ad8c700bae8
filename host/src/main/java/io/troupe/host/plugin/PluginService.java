package io.troupe.host.plugin;

import java.util.List;

import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.BundleWiring;

import io.troupe.api.ActorFactory;

/**
 * A plugin bundle's {@link ActorFactory} service as the provider of a {@link PluginFactory}: named after its
 * bundle and version, limited to the tenants of its {@value TenantScope#HEADER} header, its actors' code
 * belonging to the bundle's current revision. The only OSGi-aware {@link CodeProvider}; the plugin directory
 * orders competing services and gives them back to the framework through {@link #reference()}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class PluginService implements CodeProvider {

    private final ServiceReference<ActorFactory> reference;
    private final String description;
    private final String symbolicName;
    private final TenantScope scope;
    private final ClassLoader bundleLoader;

    PluginService(ServiceReference<ActorFactory> reference) {
        this.reference = reference;
        Bundle bundle = reference.getBundle();
        this.description = bundle == null ? "?" : bundle.getSymbolicName() + " " + bundle.getVersion();
        this.symbolicName = bundle == null ? "?" : bundle.getSymbolicName();
        this.scope = TenantScope.of(bundle);
        BundleWiring wiring = bundle == null ? null : bundle.adapt(BundleWiring.class);
        this.bundleLoader = wiring == null ? null : wiring.getClassLoader();
    }

    /** A factory provided by the service {@code reference}; see {@link PluginFactory}'s constructor. */
    static PluginFactory factory(ServiceReference<ActorFactory> reference, ActorFactory factory,
                                 List<String> handlerNames, List<String> factoryNames,
                                 PoolBounds poolBounds, ActorPools pools) {
        return new PluginFactory(new PluginService(reference), factory, handlerNames, factoryNames, poolBounds,
                pools);
    }

    /** The service reference of {@code plugin}, which the plugin directory created from a service. */
    static ServiceReference<ActorFactory> referenceOf(PluginFactory plugin) {
        return ((PluginService) plugin.provider()).reference;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public String symbolicName() {
        return symbolicName;
    }

    @Override
    public TenantScope scope() {
        return scope;
    }

    /**
     * The class loader of the bundle that registered the service (its current revision), whatever class the
     * factory object has: the service's actors belong to that bundle's swaps.
     */
    @Override
    public ClassLoader codeLoader(ActorFactory factory) {
        return bundleLoader != null ? bundleLoader : factory.getClass().getClassLoader();
    }
}
