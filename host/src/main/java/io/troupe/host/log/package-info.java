/**
 * The host's SLF4J 2.x provider: every bundle that imports {@code org.slf4j} from the host logs
 * through these classes.
 *
 * <pre>
 *  any bundle ──► org.slf4j.LoggerFactory   (embedded in and exported by the host)
 *                      │ ServiceLoader, META-INF/services/org.slf4j.spi.SLF4JServiceProvider
 *                      ▼
 *               TroupeServiceProvider ──initialize()──► TroupeLogging ◄── HostActivator: start()/stop()
 *                      │                                 │  LogSettings (troupe.home, troupe.log.level*)
 *                      ▼                                 │  Clock, MDCAdapter, LogLineFormat
 *               TroupeLoggerFactory ──caches by name──►  │
 *                      TroupeLogger ──write(level, name, message, thrown)──┘
 *                                                        │ one formatted record (one or more lines)
 *                                                        ▼
 *                                                     LogSink
 *                                        ConsoleSink (stderr) ─┬─ FanOutSink
 *                       FileSink (&lt;troupe.home&gt;/log/troupe.log) ─┘
 * </pre>
 *
 * <h2>Threading</h2>
 * Loggers are called from any thread. This version is synchronous: the calling thread formats the
 * record and writes it through the sink itself; {@link io.troupe.host.log.FileSink} serialises
 * writers with a lock. A later asynchronous logger replaces the {@link io.troupe.host.log.LogSink}
 * behind {@link io.troupe.host.log.TroupeLogging} and removes that lock.
 *
 * <h2>Class loaders</h2>
 * Nothing here keeps a reference to another bundle's objects: messages, arguments and throwables are
 * rendered to strings on the calling thread, and loggers are cached by name only. The only static
 * state is slf4j's own {@code LoggerFactory}/{@code MDC}, which live in the host bundle.
 */
package io.troupe.host.log;
