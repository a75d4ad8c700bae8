package io.troupe.shell;

import org.apache.felix.service.command.Converter;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

/**
 * Lets Gogo turn a bundle id or symbolic name into a {@link Bundle}, so that framework commands such
 * as {@code stop 0}, {@code start 12} or {@code headers io.troupe.host} work in the script console.
 * The interactive shell's gogo.jline bundle brings its own converters; without a terminal it is not
 * installed, and the script console registers this one instead.
 *
 * <p>A symbolic name installed in several versions means the highest. Anything else is left to other
 * converters ({@code null}). Formatting is left to Gogo's defaults.
 *
 * <p><b>Threading:</b> stateless apart from the bundle context; Gogo may call it from any thread.
 */
final class BundleConverter implements Converter {

    private final BundleContext context;

    BundleConverter(BundleContext context) {
        this.context = context;
    }

    @Override
    public Object convert(Class<?> desiredType, Object in) {
        if (!desiredType.isAssignableFrom(Bundle.class) || desiredType == Object.class) {
            return null;
        }
        if (in instanceof Number number) {
            return context.getBundle(number.longValue());
        }
        if (!(in instanceof CharSequence text)) {
            return null;
        }
        String name = text.toString().strip();
        try {
            return context.getBundle(Long.parseLong(name));
        } catch (NumberFormatException e) {
            return bySymbolicName(name);
        }
    }

    @Override
    public CharSequence format(Object target, int level, Converter escape) {
        return null;
    }

    private Bundle bySymbolicName(String name) {
        Bundle best = null;
        for (Bundle bundle : context.getBundles()) {
            if (name.equals(bundle.getSymbolicName())
                    && (best == null || bundle.getVersion().compareTo(best.getVersion()) > 0)) {
                best = bundle;
            }
        }
        return best;
    }
}
