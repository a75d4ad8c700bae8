package io.troupe.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.net.URL;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.felix.metatype.AD;
import org.apache.felix.metatype.MetaData;
import org.apache.felix.metatype.MetaDataReader;
import org.apache.felix.metatype.OCD;

/**
 * The attribute definitions of one {@code @ObjectClassDefinition}, as bnd wrote them into the
 * bundle's metatype document {@code OSGI-INF/metatype/<type name>.xml} at build time (the
 * annotations have CLASS retention: the document is the only place they survive).
 *
 * <p>The document is read with Felix Metatype's {@link MetaDataReader}, the parser behind the
 * MetaTypeService, from the class loader of the annotation type: inside the framework that is the
 * bundle's own entry, in a unit test {@code target/classes}. Each {@link AD} validates a value with
 * the same code that {@code AttributeDefinition.validate} of the MetaTypeService runs, and unlike
 * the service's interface it tells its minimum, maximum and options, which every error message
 * names. The MetaTypeService publishes the same definitions to tools (a web console, for example).
 *
 * <p><b>Threading:</b> immutable after construction; any thread.
 */
public final class ConfigurationSchema {

    /** Where bnd puts metatype documents. */
    static final String DOCUMENTS = "OSGI-INF/metatype/";

    private final String id;
    private final Map<String, AD> attributes;

    private ConfigurationSchema(String id, Map<String, AD> attributes) {
        this.id = id;
        this.attributes = Collections.unmodifiableMap(attributes);
    }

    /**
     * The schema bnd generated for {@code type}, whose object class definition keeps its default id,
     * the type's name.
     *
     * @throws IllegalStateException when the bundle has no such document (the build did not run bnd)
     */
    public static ConfigurationSchema of(Class<? extends Annotation> type) {
        String document = DOCUMENTS + type.getName() + ".xml";
        ClassLoader loader = type.getClassLoader();
        URL url = loader == null ? null : loader.getResource(document);
        if (url == null) {
            throw new IllegalStateException("no metatype document " + document + " beside " + type.getName()
                    + " (bnd writes it from @ObjectClassDefinition)");
        }
        MetaData metaData;
        try {
            metaData = new MetaDataReader().parse(url);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + url, e);
        }
        OCD ocd = metaData == null ? null : (OCD) metaData.getObjectClassDefinitions().get(type.getName());
        if (ocd == null) {
            throw new IllegalStateException(url + " defines no object class " + type.getName());
        }
        Map<String, AD> attributes = new LinkedHashMap<>();
        for (Object attribute : ocd.getAttributeDefinitions().values()) {
            AD ad = (AD) attribute;
            attributes.put(ad.getID(), ad);
        }
        return new ConfigurationSchema(ocd.getID(), attributes);
    }

    /** The object class definition's id. */
    public String id() {
        return id;
    }

    /** The attributes by key, in declaration order. */
    public Map<String, AD> attributes() {
        return attributes;
    }
}
