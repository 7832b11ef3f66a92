"""The translator's preview (``site-builder serve --translate LANG``): the texts of one
language marked on its pages (:mod:`.marks`), each entry's catalog facts and what is left
(:mod:`.entries`), a translation saved to its catalog after the checks ``check`` runs
(:mod:`.save`), and the HTTP side with its guards (:mod:`.api`)."""
