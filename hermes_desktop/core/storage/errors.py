"""Storage failures, shared by the store and the engine that reports them."""


class StorageError(Exception):
    """The database could not do what was asked; the message is fit for the user."""


class ReadOnlyStoreError(StorageError):
    pass


class SessionNotFound(StorageError):
    pass


class SessionExists(StorageError):
    pass
