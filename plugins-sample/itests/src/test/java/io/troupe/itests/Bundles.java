package io.troupe.itests;

import java.util.Arrays;
import java.util.stream.Collectors;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

/**
 * Finds and describes installed bundles, for tests and their failure messages.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class Bundles {

    static final String ECHO = "io.troupe.sample.echo";
    static final String WORDCOUNT = "io.troupe.sample.wordcount";

    private Bundles() {
    }

    /** The installed bundle named {@code symbolicName}; fails the test if there is none. */
    static Bundle find(BundleContext context, String symbolicName) {
        return Arrays.stream(context.getBundles())
                .filter(b -> symbolicName.equals(b.getSymbolicName()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no bundle " + symbolicName + " in" + describe(context)));
    }

    /** One line per bundle: id, symbolic name, version and state. */
    static String describe(BundleContext context) {
        return Arrays.stream(context.getBundles())
                .map(b -> b.getBundleId() + " " + b.getSymbolicName() + " " + b.getVersion() + " " + state(b))
                .collect(Collectors.joining("\n  ", "\n  ", ""));
    }

    static String state(Bundle bundle) {
        switch (bundle.getState()) {
            case Bundle.ACTIVE:
                return "ACTIVE";
            case Bundle.RESOLVED:
                return "RESOLVED";
            case Bundle.INSTALLED:
                return "INSTALLED";
            case Bundle.STARTING:
                return "STARTING";
            case Bundle.STOPPING:
                return "STOPPING";
            default:
                return "UNINSTALLED";
        }
    }
}
