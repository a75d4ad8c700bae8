package io.troupe.server.itest;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.service.metatype.AttributeDefinition;
import org.osgi.service.metatype.MetaTypeInformation;
import org.osgi.service.metatype.MetaTypeService;
import org.osgi.service.metatype.ObjectClassDefinition;

/**
 * What the MetaTypeService of the framework tells about the server bundle's configurations, in
 * plain types: JUnit reflects over the test classes in the test JVM, where the metatype API is not
 * on the class path, so they must not mention it.
 *
 * <p><b>Threading:</b> immutable; the test's thread.
 */
final class ServerMetaType {

    private final MetaTypeInformation information;

    private ServerMetaType(MetaTypeInformation information) {
        this.information = information;
    }

    /** The metatype information of {@code bundle}; fails when there is no MetaTypeService. */
    static ServerMetaType of(BundleContext context, Bundle bundle) {
        ServiceReference<MetaTypeService> reference = context.getServiceReference(MetaTypeService.class);
        if (reference == null) {
            throw new AssertionError("no MetaTypeService: is org.apache.felix.metatype installed?");
        }
        MetaTypeService service = context.getService(reference);
        try {
            return new ServerMetaType(service.getMetaTypeInformation(bundle));
        } finally {
            context.ungetService(reference);
        }
    }

    List<String> pids() {
        return List.of(information.getPids());
    }

    List<String> factoryPids() {
        return List.of(information.getFactoryPids());
    }

    /** {@code <type> <default>}, e.g. {@code Integer 7878}; {@code (none)} without a default. */
    String typeAndDefault(String pid, String key) {
        AttributeDefinition ad = attribute(pid, key);
        String type = switch (ad.getType()) {
            case AttributeDefinition.INTEGER -> "Integer";
            case AttributeDefinition.LONG -> "Long";
            case AttributeDefinition.PASSWORD -> "Password";
            case AttributeDefinition.STRING -> "String";
            case AttributeDefinition.BOOLEAN -> "Boolean";
            default -> Integer.toString(ad.getType());
        };
        String[] defaults = ad.getDefaultValue();
        return type + " " + (defaults == null ? "(none)" : String.join(",", Arrays.asList(defaults)));
    }

    /** What the service's {@code AttributeDefinition.validate} says of {@code value}: empty when valid. */
    String validate(String pid, String key, String value) {
        return attribute(pid, key).validate(value);
    }

    private AttributeDefinition attribute(String pid, String key) {
        ObjectClassDefinition ocd = information.getObjectClassDefinition(pid, null);
        if (ocd == null) {
            throw new AssertionError("no object class definition for " + pid);
        }
        return Stream.of(ocd.getAttributeDefinitions(ObjectClassDefinition.ALL))
                .filter(ad -> ad.getID().equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError(pid + " has no attribute " + key));
    }
}
