package io.troupe.shell;

import java.lang.reflect.Proxy;
import java.util.Map;

import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.Version;

import io.troupe.api.ActorFactory;

/**
 * Hand-written {@link Bundle}s and {@link ServiceReference}s answering the few methods the plugin
 * commands call; any other method fails the test.
 *
 * <p><b>Threading:</b> stateless; the stubs are immutable.
 */
final class StubBundles {

    private StubBundles() {
    }

    /** A bundle installed from {@code location} that registered {@code services}. */
    static Bundle bundle(long id, String symbolicName, String version, int state, String location,
                         ServiceReference<?>... services) {
        return (Bundle) Proxy.newProxyInstance(Bundle.class.getClassLoader(), new Class<?>[] {Bundle.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getBundleId" -> id;
                    case "getSymbolicName" -> symbolicName;
                    case "getVersion" -> Version.parseVersion(version);
                    case "getState" -> state;
                    case "getLocation" -> location;
                    case "getRegisteredServices" -> services.length == 0 ? null : services;
                    case "toString" -> "StubBundle[" + id + " " + symbolicName + "]";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException("Bundle." + method.getName() + " in a stub");
                });
    }

    /** An {@link ActorFactory} service with these properties besides its objectClass. */
    static ServiceReference<?> actorFactory(Map<String, Object> properties) {
        return service(new String[] {ActorFactory.class.getName()}, properties);
    }

    /** A service registered under {@code classes} with {@code properties}. */
    static ServiceReference<?> service(String[] classes, Map<String, Object> properties) {
        return (ServiceReference<?>) Proxy.newProxyInstance(ServiceReference.class.getClassLoader(),
                new Class<?>[] {ServiceReference.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getProperty" -> Constants.OBJECTCLASS.equals(args[0]) ? classes : properties.get(args[0]);
                    case "toString" -> "StubServiceReference" + properties;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException("ServiceReference." + method.getName()
                            + " in a stub");
                });
    }
}
