"""Parts of one scene too long for one module: each module serves exactly one scene, named in its
name; no part imports a scene module or another scene's part."""
