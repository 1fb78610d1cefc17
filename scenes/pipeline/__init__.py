"""From a request to files: looks, jobs and output kinds, the content-key cache, worker processes,
the one runner, stills, batch courses. Manim is imported only inside workers (``execute``)."""
