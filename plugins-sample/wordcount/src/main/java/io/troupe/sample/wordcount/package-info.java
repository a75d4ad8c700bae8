/**
 * The wordcount sample plugin: a handler that fans work out to child actors spawned by factory name.
 *
 * <pre>
 *   WordCountHandler    &#64;Handler("wordcount")        --creates--&gt;  WordCountActor   (one per tenant)
 *   ChunkCounterFactory &#64;Factory("wordcount.chunk")  --creates--&gt;  ChunkCounter     (one per chunk)
 *
 *   ChunkSplitter: text -&gt; chunks of at most 64 KiB, cut between words
 *   Words:         counts maximal runs of non-whitespace code points
 * </pre>
 *
 * Nothing here is exported: the runtime finds both factories through the OSGi service registry.
 */
package io.troupe.sample.wordcount;
