/**
 * The typed configuration model: how a configuration that ConfigAdmin delivers is checked against
 * its component property type before anything uses it.
 *
 * <pre>
 *  &#64;ObjectClassDefinition interface ──bnd, build time──► OSGI-INF/metatype/&lt;type&gt;.xml
 *      (keys, types, defaults,                                   │ ConfigurationSchema
 *       bounds, descriptions)                                    ▼ (Felix MetaDataReader)
 *  ConfigAdmin ──raw Map──► ConfigurationCheck ── AD.validate per key ──► CheckedConfiguration
 *  (FileInstall: etc/*.cfg,   refused: ConfigurationProblem                 typed: TypedConfiguration view
 *   felix.fileinstall.filename)  "file …/io.troupe.server.cfg: maxFrameBytes = 'abc': not an integer;
 *                                 keeping 1048576"
 * </pre>
 *
 * <p>Why not let Declarative Services hand the component its property type: DS converts a value that
 * does not fit to the type's zero (a port of {@code "ninety"} becomes 0) and says nothing. The
 * component takes the raw map, the check applies the metatype's validation (the same code as the
 * MetaTypeService's {@code AttributeDefinition.validate}), names the file, key, value and reason of
 * each bad value, and keeps the previous value in force; only accepted values reach the typed view.
 *
 * <p>Every key of the server lives in {@code io.troupe.server.ServerConfiguration}, every key of a
 * tenant in {@code io.troupe.server.tenant.TenantConfiguration}, every runtime-tunable key of the
 * host in {@code io.troupe.host.HostConfiguration}; later features add theirs there, or a property
 * type of their own beside them.
 *
 * <p>This package is not a bundle of its own: the host and the server copy it into their jars
 * (bnd {@code Private-Package}), so that it is exported by nobody and each bundle reads its own
 * metatype documents with its own copy. Its only imports are {@code org.apache.felix.metatype} and
 * {@code org.osgi.service.metatype}, from the Felix Metatype bundle.
 *
 * <p><b>Threading:</b> every class here is immutable or stateless; any thread.
 */
package io.troupe.config;
