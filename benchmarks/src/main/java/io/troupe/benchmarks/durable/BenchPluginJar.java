package io.troupe.benchmarks.durable;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import io.troupe.api.Handler;
import io.troupe.benchmarks.durable.plugin.BenchCounter;
import io.troupe.benchmarks.durable.plugin.DurableBenchCounter;

/**
 * Writes the durability benchmark's plugin, an OSGi bundle that the suite drops into its copy of the
 * distribution's {@code deploy/}: the classes of {@code io.troupe.benchmarks.durable.plugin}, copied
 * from this module's own class path (its jar or its classes folder), one Declarative Services
 * component per {@link DurabilityMode} (its handler class, {@code troupe.handler} = the mode's message
 * name, service {@code io.troupe.api.ActorFactory}), and a manifest importing only the Troupe API.
 *
 * <p>The bundle is made when the suite runs rather than by the build because this module is a plain
 * jar (the benchmarks are not bundles): a plugin module of its own would ship with the samples.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class BenchPluginJar {

    static final String SYMBOLIC_NAME = "io.troupe.benchmarks.durable";

    /** Every class the bundle holds; the plugin classes use no nested, anonymous or lambda classes. */
    private static final List<Class<?>> CLASSES = classes();

    private BenchPluginJar() {
    }

    /**
     * Writes the bundle to {@code jar}.
     *
     * @throws IOException when a class file cannot be read from the class path or the jar not written
     */
    static Path write(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", SYMBOLIC_NAME);
        main.putValue("Bundle-Version", "1.0.0");
        main.putValue("Bundle-Name", "Troupe benchmark: durability modes");
        main.putValue("Import-Package", "io.troupe.api;version=\"[1.4,2)\",io.troupe.api.state;version=\"[1.0,2)\"");
        main.putValue("Require-Capability", "osgi.ee;filter:=\"(&(osgi.ee=JavaSE)(version=17))\"");
        List<String> components = new ArrayList<>();
        for (DurabilityMode mode : DurabilityMode.values()) {
            components.add(componentPath(mode));
        }
        main.putValue("Service-Component", String.join(",", components));
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (DurabilityMode mode : DurabilityMode.values()) {
                out.putNextEntry(new JarEntry(componentPath(mode)));
                out.write(component(mode).getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
            for (Class<?> type : CLASSES) {
                String resource = type.getName().replace('.', '/') + ".class";
                try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
                    if (in == null) {
                        throw new IOException("the class file " + resource + " is not on the class path of "
                                + BenchPluginJar.class.getName() + ", so the benchmark plugin cannot be made");
                    }
                    out.putNextEntry(new JarEntry(resource));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
        return jar;
    }

    /** The component description of {@code mode}'s handler. */
    static String component(DurabilityMode mode) {
        String type = mode.handler().getName();
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <scr:component xmlns:scr="http://www.osgi.org/xmlns/scr/v1.3.0" name="%s">
                  <property name="%s" type="String" value="%s"/>
                  <service>
                    <provide interface="io.troupe.api.ActorFactory"/>
                  </service>
                  <implementation class="%s"/>
                </scr:component>
                """.formatted(type, Handler.PROPERTY, mode.handlerName(), type);
    }

    private static String componentPath(DurabilityMode mode) {
        return "OSGI-INF/" + mode.handler().getName() + ".xml";
    }

    private static List<Class<?>> classes() {
        List<Class<?>> classes = new ArrayList<>(List.of(BenchCounter.class, DurableBenchCounter.class));
        for (DurabilityMode mode : DurabilityMode.values()) {
            classes.add(mode.handler());
        }
        return List.copyOf(classes);
    }
}
