package commands

import testsketch "conductor/internal/testkit/sketch"

// sketch is the Renderer of the tests of flow (internal/testkit/sketch,
// shared with bot/'s tests): it keeps the scenes it is asked to draw and
// draws each as a picture of one pixel. What the pictures look like is the
// imaging tests' and golden pictures' business; a test of flow checks what
// was drawn, from the scenes.
type sketch = testsketch.Renderer
