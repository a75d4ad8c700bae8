package io.troupe.host.plugin;

import java.lang.reflect.Proxy;

import org.osgi.framework.ServiceReference;

import io.troupe.api.ActorFactory;

/**
 * A service reference of no bundle, for plugin services built without a framework: {@link
 * PluginService} then names its bundle "?" and takes its factory object's class loader as its code's.
 * Nothing else is asked of it in these tests; every method answers {@code null}.
 *
 * <p><b>Threading:</b> stateless.
 */
final class ServiceWithoutBundle {

    private ServiceWithoutBundle() {
    }

    @SuppressWarnings("unchecked")
    static ServiceReference<ActorFactory> reference() {
        return (ServiceReference<ActorFactory>) Proxy.newProxyInstance(ServiceWithoutBundle.class.getClassLoader(),
                new Class<?>[] {ServiceReference.class}, (proxy, method, args) -> null);
    }
}
